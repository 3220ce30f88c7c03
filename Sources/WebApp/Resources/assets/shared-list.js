// One shared list of team mode (/lists/{id}): add, complete (one or all),
// rename (double-click), move (move.js) and delete items, the filters and
// "Clear completed" (filters.js); the account's own Undo and Redo, which
// send the step their button names so that a double click takes back one
// step only; what an undo left alone, in words; older steps of the history
// on demand; the Find field (search.js); "Show more" under a long list
// (rows.js); and the live refresh when anyone changes the list.

import { ApiError, api, enqueue, putBack, showError } from './api.js';
import { fetchHTML, listenForChanges, makeRefresher, swapRegions } from './regions.js';
import { setUpSharedUndo } from './shared-undo.js';
import { historyQuery, setUpShowMore } from './history.js';
import { searchQuery, setUpSearch } from './search.js';
import { isDragging, setUpMoving } from './move.js';
import { editableTitle, startEditing, rowsQuery, setUpMoreRows, keepShown } from './rows.js';
import { filter, setUpFilters } from './filters.js';
import { followBrowserTimeZone } from './time-zone.js';

followBrowserTimeZone();

var main = document.querySelector('main[data-list]');
var list = main.getAttribute('data-list');
var base = '/api/lists/' + list;
var newTodo = document.querySelector('.new-todo');
var deferredMain = false;

var refresh = makeRefresher(function () {
  var query = 'filter=' + filter() + historyQuery('&') + searchQuery('&') + rowsQuery('&');
  return fetchHTML('/lists/' + list + '/fragment?' + query).then(function (html) {
    swapRegions(html, function (name, current) {
      // Keep the list while an item is being edited or dragged; refresh it after.
      if (name === 'main' && (current.querySelector('li.editing') || isDragging())) { deferredMain = true; return true; }
      return false;
    });
  }, function (error) {
    if (error instanceof ApiError && error.status === 404) { showGone(); return; }
    throw error;
  });
});

// The list was deleted, or is no longer shared with this account, while
// the page was open: say so in place of the list, which is no longer theirs.
function showGone() {
  var notice = document.createElement('p');
  notice.className = 'list-gone';
  notice.setAttribute('role', 'status');
  notice.textContent = 'This list was deleted, or it is no longer shared with you.';
  var back = document.createElement('a');
  back.href = '/lists';
  back.textContent = '← All lists';
  main.replaceChildren(notice, back);
  // The tab no longer names a list the account cannot open.
  document.title = 'List gone · Rewind';
}

function say(messages) {
  var box = document.getElementById('list-message');
  if (box) { box.textContent = messages.join(' '); }
}

// `then` gets the answer before the refresh.
// `failed` (optional) runs after a refused or failed change is said.
function change(method, path, body, then, failed) {
  return enqueue(function () { return api(method, path, body); })
    .then(function (data) { if (then) { then(data); } refresh(); return data; }, function (error) { showError(error); if (failed) { failed(error); } refresh(); });
}

function itemID(element) {
  var li = element.closest('li[data-id]');
  return li ? li.getAttribute('data-id') : null;
}

newTodo.addEventListener('keydown', function (event) {
  if (event.key !== 'Enter' || event.isComposing) { return; }
  var title = newTodo.value.trim();
  if (!title) { return; }
  newTodo.value = '';
  change('POST', base + '/todos', { title: title }, function (data) { keepShown(data && data.item && data.item.id); }, putBack(newTodo, title));
});

document.addEventListener('change', function (event) {
  var target = event.target;
  if (target.id === 'toggle-all') {
    change('POST', base + '/todos/toggle-all', { completed: target.checked });
    return;
  }
  if (!target.classList.contains('toggle')) { return; }
  var id = itemID(target);
  if (id) { change('PATCH', base + '/todos/' + id, { completed: target.checked }); }
});

document.addEventListener('click', function (event) {
  var target = event.target;
  if (target.classList.contains('destroy')) {
    var id = itemID(target);
    var li = target.closest('li');
    if (li) { li.hidden = true; }
    if (id) { change('DELETE', base + '/todos/' + id); }
  }
});


// Editing: double-click a title; Enter or leaving the field saves,
// Escape cancels, an empty title deletes.
document.addEventListener('dblclick', function (event) {
  var label = event.target.closest('.todo-list li .view label');
  if (!label) { return; }
  startEditing(label.closest('li'));
});

function finishEditing(input, save) {
  var li = input.closest('li');
  if (!li || !li.classList.contains('editing')) { return; }
  var label = li.querySelector('.view label');
  var id = li.getAttribute('data-id');
  li.classList.remove('editing');
  if (save) {
    var title = input.value.trim();
    if (!title) {
      li.hidden = true;
      change('DELETE', base + '/todos/' + id);
    } else if (title !== editableTitle(label).trim()) {
      label.textContent = title;
      change('PATCH', base + '/todos/' + id, { title: title });
    }
  }
  if (deferredMain) { deferredMain = false; refresh(); }
}

document.addEventListener('keydown', function (event) {
  var input = event.target;
  if (!input.classList || !input.classList.contains('edit')) { return; }
  if (event.key === 'Enter' && !event.isComposing) {
    event.preventDefault();
    finishEditing(input, true);
  } else if (event.key === 'Escape') {
    event.preventDefault();
    input.setAttribute('data-cancelled', 'yes');
    finishEditing(input, false);
  }
});

document.addEventListener('focusout', function (event) {
  var input = event.target;
  if (!input.classList || !input.classList.contains('edit')) { return; }
  var cancelled = input.getAttribute('data-cancelled') === 'yes';
  input.removeAttribute('data-cancelled');
  finishEditing(input, !cancelled);
});

setUpMoving(function (id, body) { keepShown(id); change('POST', base + '/todos/' + id + '/move', body); }, refresh);
setUpSharedUndo(base, refresh, say);
setUpShowMore(refresh);
setUpSearch(refresh);
setUpMoreRows(refresh);
setUpFilters(refresh, function () { change('POST', base + '/todos/clear-completed'); });
listenForChanges(refresh, '/lists/' + list + '/events', 'list');
if (filter() !== 'all') { refresh(); }
// Without scrolling: coming Back from an item, the browser puts the list where it was.
newTodo.focus({ preventScroll: true });
