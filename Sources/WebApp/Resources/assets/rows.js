// "Show more" under a long list (the to-do page's, a shared list's): the
// page shows the first 200 rows of the filter, order and search; the button
// (.show-more-rows) asks for more, and every refresh after it asks for as
// many (?rows= of the page's fragment, kept in the page's address too, so
// that a reload, or coming back from an item's page, shows as many). The focus goes to the first row
// that came in, so that the keyboard goes on where the list went on. The
// items added or moved on the page are asked for too (?also=), so that one
// added at the end of a long list, or moved past the rows shown, is shown
// after them, not hidden among those not shown.

import { announce, showError } from './api.js';
import { filter } from './filters.js';
import { isDragging } from './move.js';

var fromAddress = Number(new URLSearchParams(window.location.search).get('rows'));
var shownRows = Number.isInteger(fromAddress) && fromAddress > 0 ? fromAddress : null;
var kept = [];
var mostKept = 50;
// A rename the server refused because someone renamed the item while the
// edit was open ({ id, was, title }), offered again by the next refresh.
var refused = null;

// A row's title as its one-line edit field holds it: a text field drops
// line breaks, so they become spaces here, and an edit left as it began
// saves nothing (it would join "two\nlines" into "twolines").
export function editableTitle(label) {
  return label.textContent.replace(/\r\n|[\r\n]/g, ' ');
}

// Opens the edit field of the row `li` (a double-click on its title, or
// F2 on one of its controls), closing any other, with the caret after the title: typing
// goes on where the title ends.
export function startEditing(li) {
  var input = li.querySelector('.edit');
  if (!input) { return; }
  document.querySelectorAll('.todo-list li.editing').forEach(function (other) { if (other !== li) { other.classList.remove('editing'); } });
  li.classList.add('editing');
  input.value = editableTitle(li.querySelector('.view label'));
  input.removeAttribute('data-cancelled');
  input.focus();
  input.setSelectionRange(input.value.length, input.value.length);
}

// The query of the page's fragment URLs for the list: '' until "Show more"
// was pressed or an item was added or moved; `separator` is '?' or '&'.
export function rowsQuery(separator) {
  var parts = [];
  if (shownRows) { parts.push('rows=' + shownRows); }
  if (kept.length) { parts.push('also=' + kept.join(',')); }
  return parts.length ? separator + parts.join('&') : '';
}

// Shows the item `id`, added or moved on this page, from the next refresh
// on, even when it lies past the rows shown.
export function keepShown(id) {
  if (!id) { return; }
  kept = kept.filter(function (other) { return other !== id; });
  kept.push(id);
  if (kept.length > mostKept) { kept.shift(); }
}

// `refresh` fetches the page's regions again, with rowsQuery(); it returns
// a promise.
export function setUpMoreRows(refresh) {
  document.addEventListener('click', function (event) {
    var button = event.target.closest('.show-more-rows');
    if (!button) { return; }
    // The rows before those added past them (li.after-gap and after).
    var rows = Array.prototype.slice.call(document.querySelectorAll('.todo-list > li'));
    var gap = rows.findIndex(function (row) { return row.classList.contains('after-gap'); });
    var before = gap < 0 ? rows.length : gap;
    shownRows = Number(button.getAttribute('data-rows'));
    button.disabled = true;
    var parameters = new URLSearchParams(window.location.search);
    parameters.set('rows', String(shownRows));
    window.history.replaceState(null, '', window.location.pathname + '?' + parameters.toString() + window.location.hash);
    Promise.resolve(refresh()).then(function () {
      var first = document.querySelectorAll('.todo-list > li')[before];
      var toggle = first && first.querySelector('.toggle');
      if (toggle) { toggle.focus(); }
    });
  });
}

// What a refresh of the list's page leaves as it is (for `swapRegions`,
// one per refresh) while a row's title is being edited or a row dragged:
// the list, and its counts, which would not match the rows shown. Calls
// `deferred` when it does, so that a refresh follows the edit.
export function keepWhileEditing(deferred) {
  var keptList = false;
  return function (name, current) {
    if (name === 'main' && (current.querySelector('li.editing') || isDragging())) {
      keptList = true;
      deferred();
    }
    if (name === 'main' && !keptList && refused) {
      // Once the list is drawn again, with the title the item has now.
      var offer = refused;
      refused = null;
      Promise.resolve().then(function () { offerAgain(offer); });
    }
    return keptList && (name === 'main' || name === 'footer');
  };
}

// Says that someone renamed the item while the person was editing it, and
// puts their title back in the row's edit field, the row now showing the
// other title: Enter saves theirs in its place, Escape keeps the other.
// The field opens only when the keyboard was still on that row (Enter
// left it on the row's circle) or nowhere, never taken from elsewhere.
function offerAgain(offer) {
  var li = document.querySelector('.todo-list li[data-id="' + offer.id + '"]');
  var label = li && li.querySelector('.view label');
  if (!label || label.textContent === offer.was || label.textContent === offer.title) { return; }
  var focused = document.activeElement;
  var reopen = !focused || focused === document.body || li.contains(focused);
  showError('While you were editing, someone renamed “' + offer.was + '” to “' + label.textContent + '”, so “' + offer.title +
    '” was not saved.' + (reopen ? ' It is back in the field: Enter puts it in place of theirs, Escape keeps theirs.' : ''));
  if (!reopen) { return; }
  startEditing(li);
  var input = li.querySelector('.edit');
  input.value = offer.title;
  input.setSelectionRange(input.value.length, input.value.length);
}

// Where the keyboard goes when the row `li` leaves the list (its × pressed,
// its title emptied; or, with `control` '.toggle', completed under Active):
// the next row's × (or `control`), else the one before, else Undo, else the
// field that adds an item. A refresh that draws the list again keeps it there.
function focusAfterRemoving(li, control) {
  function shown(row, step) {
    var other = row[step];
    while (other && (other.hidden || !other.matches('li[data-id]'))) { other = other[step]; }
    return other;
  }
  // The last row gone: Undo, which brings it back (in the new-item field the
  // keyboard would be where a typed key adds an item).
  var row = shown(li, 'nextElementSibling') || shown(li, 'previousElementSibling');
  var target = (row && row.querySelector(control || '.destroy')) || document.querySelector('.undo-bar button:not(:disabled)') ||
    document.querySelector('.new-todo');
  if (target) { target.focus(); }
}

// The rows' own actions, the same on the to-do page and a shared list's:
// the checkbox completes or reopens an item, × deletes it, a double-click
// on a title edits it (Enter or leaving the field saves the trimmed title,
// an empty one deletes, Escape cancels). Each shows at once, and is put
// back as it was when the change fails (the server refused it or cannot
// be reached). `change(method, path, body, then, failed)` sends a change;
// `itemPath(id)` is an item's API path; `afterEditing()` runs when an edit
// closes (the list's refresh waits while one is open).
export function setUpRows(change, itemPath, afterEditing) {
  function rowOf(element) { return element.closest('li[data-id]'); }

  // A change to a row whose item went meanwhile (someone deleted it, an
  // undo took back its add) says so by the row's title, not by its id.
  function sayIfGone(error, title) {
    if (!error || error.status !== 404) { return; }
    showError(new Error('“' + title + '” is no longer on the list: it was deleted, or an undo took back the step that made it. Your change was not saved.'));
  }

  function remove(li) {
    var title = editableTitle(li.querySelector('.view label')).trim();
    li.hidden = true;
    change('DELETE', itemPath(li.getAttribute('data-id')), undefined, function () {
      announce('Deleted “' + title + '”.');
    }, function (error) {
      li.hidden = false;
      sayIfGone(error, title);
    });
  }

  document.addEventListener('change', function (event) {
    var toggle = event.target;
    if (!toggle.classList.contains('toggle')) { return; }
    var li = rowOf(toggle);
    if (!li) { return; }
    var completed = toggle.checked;
    li.classList.toggle('completed', completed);
    // A row its filter no longer shows (completed under Active) takes the
    // keyboard with it: on to the next row's circle, as × goes to the next ×.
    var shown = filter();
    var leaves = completed ? shown === 'active' || shown === 'overdue' : shown === 'completed';
    if (leaves && document.activeElement === toggle) { focusAfterRemoving(li, '.toggle'); }
    var title = editableTitle(li.querySelector('.view label')).trim();
    change('PATCH', itemPath(li.getAttribute('data-id')), { completed: completed }, function () {
      announce((completed ? 'Completed “' : 'Reopened “') + title + '”.');
    }, function (error) {
      sayIfGone(error, title);
      // Unless a refresh drew the row again since.
      if (toggle.isConnected && toggle.checked === completed) {
        toggle.checked = !completed;
        li.classList.toggle('completed', !completed);
      }
    });
  });

  document.addEventListener('click', function (event) {
    var button = event.target;
    if (!button.classList.contains('destroy')) { return; }
    var li = rowOf(button);
    if (!li) { return; }
    // Pressed from the keyboard (a click has a count): the keyboard stays in the list.
    if (event.detail === 0) { focusAfterRemoving(li); }
    remove(li);
  });

  document.addEventListener('dblclick', function (event) {
    var label = event.target.closest('.todo-list li .view label');
    if (!label) { return; }
    startEditing(label.closest('li'));
  });

  function finishEditing(input, save) {
    var li = input.closest('li');
    if (!li || !li.classList.contains('editing')) { return; }
    var label = li.querySelector('.view label');
    li.classList.remove('editing');
    if (save) {
      var title = input.value.trim();
      var before = label.textContent;
      if (!title) {
        remove(li);
      } else if (title !== editableTitle(label).trim()) {
        label.textContent = title;
        var id = li.getAttribute('data-id');
        // `was`: the server refuses (409) when someone renamed the item
        // while this edit was open, rather than replace their title unseen.
        change('PATCH', itemPath(id), { title: title, was: { title: before } }, function () {
          announce('Renamed “' + before + '” to “' + title + '”.');
        }, function (error) {
          sayIfGone(error, before);
          if (label.textContent === title) { label.textContent = before; }
          if (error && error.status === 409) { refused = { id: id, was: before, title: title }; }
        });
      }
    }
    afterEditing();
  }

  // F2 on a row's control (its check circle, Details, ×, ⠿) edits its
  // title, as a double-click does: the keyboard's way in.
  document.addEventListener('keydown', function (event) {
    if (event.key !== 'F2' || event.ctrlKey || event.altKey || event.metaKey) { return; }
    var li = event.target.closest ? event.target.closest('.todo-list li') : null;
    if (!li || event.target.classList.contains('edit')) { return; }
    event.preventDefault();
    startEditing(li);
  });

  document.addEventListener('keydown', function (event) {
    var input = event.target;
    if (!input.classList || !input.classList.contains('edit')) { return; }
    var li = input.closest('li');
    if (event.key === 'Enter' && !event.isComposing) {
      event.preventDefault();
      finishEditing(input, true);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      input.setAttribute('data-cancelled', 'yes');
      finishEditing(input, false);
    } else {
      return;
    }
    // The keyboard stays on the row (its checkbox), or goes on to the next
    // when the row went with its title.
    var toggle = li.querySelector('.toggle');
    if (li.hidden) { focusAfterRemoving(li); } else if (toggle) { toggle.focus(); }
  });

  document.addEventListener('focusout', function (event) {
    var input = event.target;
    if (!input.classList || !input.classList.contains('edit')) { return; }
    var cancelled = input.getAttribute('data-cancelled') === 'yes';
    input.removeAttribute('data-cancelled');
    finishEditing(input, !cancelled);
  });
}
