// The to-do page (/todos, TodoMVC): add, toggle, edit, delete, move and
// clear items, the filters (#/active, #/completed, #/overdue), the order (list,
// smart, due date), the Find field (search.js), "Show more" under a long
// list (rows.js), and the live refresh of the list.

import { announce, api, clearError, enqueue, putBack, restoreUnsentItem, sayAllMarked, sayCleared, showError } from './api.js';
import { fetchHTML, listenForChanges, makeRefresher, swapRegions } from './regions.js';
import { filter, setUpFilters } from './filters.js';
import { historyQuery, setUpHistory } from './history.js';
import { setUpModals } from './modal-card.js';
import { setUpMoving } from './move.js';
import { keepShown, keepWhileEditing, rowsQuery, setUpMoreRows, setUpRows } from './rows.js';
import { searchQuery, setUpSearch } from './search.js';
import { followBrowserTimeZone } from './time-zone.js';

followBrowserTimeZone();

var newTodo = document.querySelector('.new-todo');
var deferredMain = false;

// The order chosen last (#sort-order), kept in the browser.
function sort() {
  var chosen = null;
  try { chosen = window.localStorage.getItem('rewind.sort'); } catch (e) { chosen = null; }
  return chosen === 'smart' || chosen === 'due' ? chosen : 'list';
}

var refresh = makeRefresher(function () {
  var query = 'filter=' + filter() + '&sort=' + sort() + searchQuery('&') + historyQuery('&') + rowsQuery('&');
  return fetchHTML('/todos/fragment?' + query).then(function (html) {
    swapRegions(html, keepWhileEditing(function () { deferredMain = true; }));
  });
});

// `then` gets the answer before the refresh.
// `failed` (optional) runs after a refused or failed change is said.
function change(method, path, body, then, failed) {
  return enqueue(function () { return api(method, path, body); })
    .then(function (data) { clearError(); if (then) { then(data); } refresh(); }, function (error) { showError(error); if (failed) { failed(error); } refresh(); });
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
  var body = { title: title };
  change('POST', '/api/todos', body, function (item) {
    keepShown(item && item.id);
    announce('Added “' + title + '”.');
  }, putBack(newTodo, title));
});

document.addEventListener('change', function (event) {
  var target = event.target;
  if (target.id === 'toggle-all') {
    change('POST', '/api/todos/toggle-all', { completed: target.checked }, sayAllMarked);
  } else if (target.id === 'sort-order') {
    try {
      window.localStorage.setItem('rewind.sort', target.value);
    } catch (e) {
      // Storage is off (a private window): the order cannot be remembered.
    }
    refresh();
  }
});

// Where the list was scrolled, for the way back (Back from an item's page).
// The browser restores it itself, but not always: a page loaded again on a
// busy machine was once in a few times found at its top. Then this does.
window.addEventListener('pagehide', function () {
  try {
    var at = { page: window.location.pathname + window.location.search, y: window.scrollY };
    window.sessionStorage.setItem('rewind.todosScroll', JSON.stringify(at));
  } catch (e) {
    // Storage is off (a private window): the browser's own restore only.
  }
});

function restoreScrollOnTheWayBack() {
  var entries = window.performance && performance.getEntriesByType ? performance.getEntriesByType('navigation') : [];
  if (!entries.length || entries[0].type !== 'back_forward') { return; }
  var saved = null;
  try { saved = JSON.parse(window.sessionStorage.getItem('rewind.todosScroll') || 'null'); } catch (e) { saved = null; }
  if (!saved || saved.page !== window.location.pathname + window.location.search || !(saved.y > 0)) { return; }
  // After the load, when the browser's own restore has had its turn.
  window.addEventListener('load', function () {
    setTimeout(function () {
      if (window.scrollY === 0) { window.scrollTo(0, saved.y); }
    }, 0);
  });
}
restoreScrollOnTheWayBack();

document.addEventListener('click', function (event) {
  var target = event.target;
  if (target.classList.contains('item-details')) {
    // The detail page's "← All to-dos" comes back to the list as it is now.
    try {
      var from = { id: itemID(target), url: window.location.pathname + window.location.search + window.location.hash };
      window.sessionStorage.setItem('rewind.detailFrom', JSON.stringify(from));
    } catch (e) {
      // Storage is off (a private window): the link goes to /todos.
    }
  }
});

setUpRows(change, function (id) { return '/api/todos/' + id; }, function () {
  if (deferredMain) { deferredMain = false; refresh(); }
});
setUpMoving(function (id, body) { keepShown(id); change('POST', '/api/todos/' + id + '/move', body); }, refresh);
setUpSearch(refresh);
setUpMoreRows(refresh);
setUpFilters(refresh, function () { change('POST', '/api/todos/clear-completed', undefined, sayCleared); });
setUpHistory(function () { refresh(); }, refresh);
setUpModals(function () { refresh(); });
listenForChanges(refresh);
if (filter() !== 'all' || sort() !== 'list') { refresh(); }
// Back from an item's page by its "← All to-dos": the keyboard on that
// item's Details link, where it left the list, and the row in view.
function detailsCameBackFrom() {
  var from = null;
  var back = null;
  try {
    from = JSON.parse(window.sessionStorage.getItem('rewind.detailFrom') || 'null');
    back = window.sessionStorage.getItem('rewind.detailBack');
    window.sessionStorage.removeItem('rewind.detailBack');
  } catch (e) { from = null; }
  if (!from || !from.id || from.id !== back) { return null; }
  if (from.url !== window.location.pathname + window.location.search + window.location.hash) { return null; }
  return document.querySelector('.todo-list li[data-id="' + from.id + '"]:not([hidden]) .item-details');
}
// An add refused because the session had ended: typed back, once signed in again.
restoreUnsentItem(newTodo);
var cameBack = detailsCameBackFrom();
if (cameBack) {
  cameBack.focus({ preventScroll: true });
  cameBack.scrollIntoView({ block: 'center' });
} else {
  // Without scrolling: coming Back from an item, the browser puts the list where it was.
  newTodo.focus({ preventScroll: true });
}
