// One shared list of team mode (/lists/{id}): add, complete (one or all),
// rename (double-click), move (move.js) and delete items, the filters and
// "Clear completed" (filters.js); the account's own Undo and Redo, which
// send the step their button names so that a double click takes back one
// step only; what an undo left alone, in words; older steps of the history
// on demand; the Find field (search.js); "Show more" under a long list
// (rows.js); and the live refresh when anyone changes the list.

import { ApiError, announce, api, clearError, enqueue, putBack, restoreUnsentItem, sayAllMarked, sayCleared, showError } from './api.js';
import { fetchHTML, listenForChanges, makeRefresher, showListGone, swapRegions } from './regions.js';
import { setUpSharedUndo } from './shared-undo.js';
import { historyQuery, setUpShowMore } from './history.js';
import { searchQuery, setUpSearch } from './search.js';
import { setUpMoving } from './move.js';
import { keepShown, keepWhileEditing, rowsQuery, setUpMoreRows, setUpRows } from './rows.js';
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
    swapRegions(html, keepWhileEditing(function () { deferredMain = true; }));
  }, function (error) {
    if (error instanceof ApiError && error.status === 404) { showListGone(main); return; }
    throw error;
  });
});


function say(messages) {
  var box = document.getElementById('list-message');
  if (box) { box.textContent = messages.join(' '); }
}

// What the lists page had to say of this list as it made it (a name that
// another of the person's lists has too), said here once.
try {
  var notice = JSON.parse(window.sessionStorage.getItem('rewind.madeList') || 'null');
  window.sessionStorage.removeItem('rewind.madeList');
  if (notice && notice.list === list && notice.text) { say([notice.text]); }
} catch (e) { /* No session storage: nothing to say. */ }

// `then` gets the answer before the refresh. What an undo or redo said
// of the parts it left alone goes with the person's next change.
// `failed` (optional) runs after a refused or failed change is said.
function change(method, path, body, then, failed) {
  return enqueue(function () { return api(method, path, body); })
    .then(function (data) { clearError(); say([]); if (then) { then(data); } refresh(); return data; }, function (error) { showError(error); if (failed) { failed(error); } refresh(); });
}

newTodo.addEventListener('keydown', function (event) {
  if (event.key !== 'Enter' || event.isComposing) { return; }
  var title = newTodo.value.trim();
  if (!title) { return; }
  newTodo.value = '';
  change('POST', base + '/todos', { title: title }, function (data) {
    keepShown(data && data.item && data.item.id);
    announce('Added “' + title + '”.');
  }, putBack(newTodo, title));
});

document.addEventListener('change', function (event) {
  if (event.target.id === 'toggle-all') { change('POST', base + '/todos/toggle-all', { completed: event.target.checked }, sayAllMarked); }
});

setUpRows(change, function (id) { return base + '/todos/' + id; }, function () {
  if (deferredMain) { deferredMain = false; refresh(); }
});
setUpMoving(function (id, body) { keepShown(id); change('POST', base + '/todos/' + id + '/move', body); }, refresh);
setUpSharedUndo(base, refresh, say);
setUpShowMore(refresh);
setUpSearch(refresh);
setUpMoreRows(refresh);
setUpFilters(refresh, function () { change('POST', base + '/todos/clear-completed', undefined, sayCleared); });
listenForChanges(refresh, '/lists/' + list + '/events', 'list');
if (filter() !== 'all') { refresh(); }
// An add refused because the session had ended: typed back, once signed in again.
restoreUnsentItem(newTodo);
// Without scrolling: coming Back from an item, the browser puts the list where it was.
newTodo.focus({ preventScroll: true });
