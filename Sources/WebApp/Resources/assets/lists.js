// The lists page of team mode (/lists): make a list, rename, share and
// stop sharing the lists the account owns, and delete one after the
// ModalCard's confirmation. The page follows /lists/events: what another
// person or another tab changes (names, members, counts, lists shared with
// the account) shows without a reload, keeping what is typed.

import { api, clearError, enqueue, showError } from './api.js';
import { fetchHTML, listenForChanges, makeRefresher, swapRegions } from './regions.js';
import { setUpModals, watchDialog } from './modal-card.js';
import { followBrowserTimeZone } from './time-zone.js';

followBrowserTimeZone();

// A field of a list's row, by the list, its form and its name: what a
// refresh keeps across the swap.
function fieldKey(input) {
  var row = input.closest('[data-list]');
  var form = input.closest('form');
  if (!row || !form || !input.name) { return null; }
  return { list: row.getAttribute('data-list'), form: form.classList[0], name: input.name };
}

function field(key) {
  return document.querySelector('[data-list="' + key.list + '"] form.' + key.form + ' input[name="' + key.name + '"]');
}

// What is typed into the lists' fields, and where the caret is, so that a
// refresh (another person's change, heard live) keeps them. A field only
// focused keeps its caret and takes the new value (a name changed elsewhere).
function typedFields() {
  var typed = [];
  document.querySelectorAll('[data-region="lists"] input').forEach(function (input) {
    var key = fieldKey(input);
    var focused = input === document.activeElement;
    var changed = input.value !== input.defaultValue;
    if (key && (focused || changed)) {
      typed.push({ key: key, value: changed ? input.value : null, focused: focused,
        start: input.selectionStart, end: input.selectionEnd });
    }
  });
  return typed;
}

function restoreFields(typed) {
  typed.forEach(function (entry) {
    var input = field(entry.key);
    if (!input) { return; }
    if (entry.value !== null) { input.value = entry.value; }
    if (entry.focused) {
      // Where it is: the page stays where it was scrolled to.
      input.focus({ preventScroll: true });
      input.setSelectionRange(entry.start, entry.end);
    }
  });
}

// What the page says of what happened, politely (a screen reader hears
// it after what it is saying): a share, a rename, a list gone.
var statusLine = document.getElementById('lists-status');

function say(text) {
  if (statusLine) { statusLine.textContent = text; }
}

// A refusal, in the error box; what the status line said of an earlier
// action goes, so that the two never contradict each other.
function refuse(error) {
  say('');
  showError(error);
}

// The lists the page shows: their names by id.
function shownLists() {
  var names = {};
  document.querySelectorAll('[data-region="lists"] [data-list]').forEach(function (row) {
    names[row.getAttribute('data-list')] = listName(row);
  });
  return names;
}

// What to say when a list leaves the page by this page's own delete or
// leave, by its id; any other list that leaves it was deleted, or
// unshared, by someone else.
var leaving = {};

function sayWhatCameAndWent(before, after) {
  var said = [];
  Object.keys(before).forEach(function (id) {
    if (after[id] !== undefined) { return; }
    said.push(leaving[id] || '“' + before[id] + '” is no longer among your lists: it was deleted, or it is no longer shared with you.');
    delete leaving[id];
  });
  Object.keys(after).forEach(function (id) {
    if (before[id] === undefined) { said.push('“' + after[id] + '” is now among your lists.'); }
  });
  if (said.length) { say(said.join(' ')); }
}

var refresh = makeRefresher(function () {
  return fetchHTML('/lists/fragment').then(function (html) {
    var typed = typedFields();
    var before = shownLists();
    swapRegions(html);
    restoreFields(typed);
    sayWhatCameAndWent(before, shownLists());
    document.querySelectorAll('dialog[data-modal-card]').forEach(watchDialog);
  });
});

function change(method, path, body) {
  return enqueue(function () { return api(method, path, body); })
    .then(function (data) { clearError(); refresh(); return data; }, function (error) { refuse(error); refresh(); throw error; });
}

var emptyName = "A list's name must not be empty.";

function listID(element) {
  var row = element.closest('[data-list]');
  return row ? row.getAttribute('data-list') : null;
}

// The person's other lists (all but `id`) named `name`, without case.
function sameNamed(name, id) {
  var wanted = name.trim().toLowerCase();
  return Array.prototype.filter.call(document.querySelectorAll('[data-list] .list-name'), function (other) {
    return listID(other) !== id && other.textContent.trim().toLowerCase() === wanted;
  });
}

function listName(element) {
  var row = element.closest('[data-list]');
  var link = row && row.querySelector('.list-name');
  return link ? link.textContent : '';
}

// The forms whose change is on its way, by list and form: a second submit
// (a double-click on Make list or Share) waits for the first's answer
// instead of making a second list.
var sending = {};

function once(form, send) {
  var key = (listID(form) || 'new') + ' ' + form.classList[0];
  // The first submit's answer does what is to be done: this one never answers.
  if (sending[key]) { return new Promise(function () {}); }
  sending[key] = true;
  var sent = send();
  function done() { delete sending[key]; }
  sent.then(done, done);
  return sent;
}

document.addEventListener('submit', function (event) {
  var form = event.target;
  var input;
  if (form.classList.contains('new-list')) {
    event.preventDefault();
    input = form.querySelector('input[name="name"]');
    var name = input.value.trim();
    if (!name) { return refuse(emptyName); }
    var repeated = sameNamed(name, null).length > 0;
    once(form, function () { return change('POST', '/api/lists', { name: name }); }).then(function (list) {
      input.value = '';
      // Said on the new list's page, as `rewind lists create` says it.
      if (repeated) {
        try {
          window.sessionStorage.setItem('rewind.madeList', JSON.stringify({ list: list.id,
            text: 'Another of your lists is named “' + name + '” too; the lists page shows each one with the start of its id, which names it in the terminal.' }));
        } catch (e) { /* No session storage: the list is made all the same. */ }
      }
      window.location.assign('/lists/' + list.id);
    }, function () {});
  } else if (form.classList.contains('rename-list')) {
    event.preventDefault();
    input = form.querySelector('input[name="name"]');
    if (!input.value.trim()) { return refuse(emptyName); }
    // The field shows a name's line breaks as spaces: left as it began,
    // it renames nothing (it would join "two\nlines" into "twolines").
    if (input.value.trim() === input.defaultValue.trim()) { return clearError(); }
    var id = listID(form);
    var before = listName(form);
    // Names may repeat; the terminal then needs the list's id, as `rewind lists rename` says.
    var same = sameNamed(input.value, id);
    change('PATCH', '/api/lists/' + id, { name: input.value }).then(function (list) {
      say('Renamed “' + before + '” to “' + list.name + '”.' + (same.length
        ? ' Another of your lists has this name too; each now shows the start of its id, which names it in the terminal.' : ''));
    }, function () {});
  } else if (form.classList.contains('share-list')) {
    event.preventDefault();
    input = form.querySelector('input[name="account"]');
    var account = input.value.trim();
    if (!account) { return refuse('Type the name of the account to share the list with.'); }
    // Emptied once shared; kept to be mended when refused (no such account).
    var key = fieldKey(input);
    var shared = listName(form);
    once(form, function () { return change('POST', '/api/lists/' + listID(form) + '/members', { account: account }); })
      .then(function (list) {
        // The field as it is now: a refresh may have put a new one in its place.
        var now = key && field(key);
        if (now) { now.value = ''; }
        // The account as it was made, whatever the case typed here.
        var made = (list.members || []).filter(function (member) {
          return member.toLowerCase() === account.toLowerCase();
        })[0] || account;
        say('Shared “' + shared + '” with ' + made + '.');
      }, function () {});
  }
});

// A list left or deleted takes its buttons with it: the focus goes to the
// first list's name, or to the field that makes one, not to the page's body.
// A member no longer shared with takes their "Stop sharing" button: the
// focus goes to their list's name.
setUpModals(function (dialog, failed) {
  // The card of a list's delete or leave: confirm-delete-{id}, confirm-leave-{id}.
  // One that failed (the list was gone already) did nothing to say as done.
  var card = dialog && !failed && /^confirm-(delete|leave)-(.+)$/.exec(dialog.id);
  var row = card && document.querySelector('[data-list="' + card[2] + '"]');
  if (row) {
    var name = listName(row);
    leaving[card[2]] = card[1] === 'delete' ? 'Deleted “' + name + '”.' : 'You left “' + name + '”.';
  }
  // confirm-unshare-{id}-{account}: the list's id is a UUID, 36 characters.
  var unshared = dialog && !failed && /^confirm-unshare-(.{36})-(.+)$/.exec(dialog.id);
  var sharedRow = unshared && document.querySelector('[data-list="' + unshared[1] + '"]');
  var opener = unshared && document.querySelector('[data-opens-modal="' + dialog.id + '"]');
  var sentence = sharedRow && opener
    ? 'Stopped sharing “' + listName(sharedRow) + '” with ' + opener.getAttribute('data-account') + '.' : '';
  refresh().then(function () {
    if (sentence) { say(sentence); }
    if (document.activeElement && document.activeElement !== document.body) { return; }
    var target = (unshared && document.querySelector('[data-list="' + unshared[1] + '"] .list-name')) ||
      document.querySelector('.list-name') || document.getElementById('new-list-name');
    if (target) { target.focus(); }
  });
});

// An event names the digest of the lists as the server read them; the
// region names the one it shows (its own refresh after a change may have
// read a later state than the stream's last event).
listenForChanges(refresh, '/lists/events', 'lists', function (id) {
  var region = document.querySelector('[data-region="lists"]');
  return region !== null && region.getAttribute('data-overview') === id;
});

// Coming back to the page (another tab, another window) shows the lists as
// they are now, in case the event stream missed something while the page
// slept.
document.addEventListener('visibilitychange', function () {
  if (document.visibilityState === 'visible' && !document.querySelector('dialog[open]')) { refresh(); }
});
