// Requests to the JSON API: one queue, so that quick successive actions
// apply in the order they were made, none lost and none doubled; the CSRF
// token from the page's <meta name="rewind-csrf">; errors shown in the
// page's status line.

var csrfMeta = document.querySelector('meta[name="rewind-csrf"]');
var csrfToken = csrfMeta ? csrfMeta.getAttribute('content') : '';
var queue = Promise.resolve();

// The queue's newest request, settled or not.
export function pending() { return queue; }

export function enqueue(task) {
  var run = queue.then(task);
  queue = run.catch(function () {});
  return run;
}

export function ApiError(message, status) {
  this.message = message;
  this.status = status;
}

// What a request that never reached the server says (status 0), rather
// than the browser's "Failed to fetch".
export var unreachable = 'The server cannot be reached, so nothing was changed. Try again in a moment.';

function send(method, path, body) {
  var headers = { 'Accept': 'application/json', 'X-Rewind-CSRF': csrfToken };
  var init = { method: method, headers: headers, credentials: 'same-origin' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  return fetch(path, init).catch(function () { throw new ApiError(unreachable, 0); });
}

export function api(method, path, body) {
  return send(method, path, body).then(function (response) {
    if (response.status !== 403) { return response; }
    // The server may have restarted with a new token: fetch it and retry once.
    return fetch('/api/csrf', { credentials: 'same-origin' })
      .then(function (fresh) { return fresh.ok ? fresh.json() : null; })
      .then(function (data) {
        if (!data || data.token === csrfToken) { return response; }
        csrfToken = data.token;
        return send(method, path, body);
      });
  }).then(function (response) {
    return response.json().catch(function () { return {}; }).then(function (data) {
      if (!response.ok) { throw new ApiError(data.error || response.statusText, response.status); }
      return data;
    });
  });
}

// What a refused or failed add runs: puts `text` back into `field`
// when it is still empty (it was emptied at once, for the next item), so
// that nothing typed is lost.
export function putBack(field, text) {
  return function () {
    if (field.value === '') { field.value = text; }
  };
}

// What the new-item field holds when the page leaves for the sign-in page
// (its session ended, and the add was refused), kept for the same page's
// next load, where `restoreUnsentItem` puts it back.
// Only for the same account: another who signs in on this browser gets none of it.
export function keepUnsentItem() {
  var field = document.querySelector('.new-todo');
  if (!field || !field.value.trim()) { return; }
  try {
    window.sessionStorage.setItem('rewind.unsentItem',
      JSON.stringify({ path: window.location.pathname, account: signedInAccount(), text: field.value }));
  } catch (e) { /* No session storage: typed again. */ }
}

// The account the page is signed in as (team mode), as the top bar names it.
function signedInAccount() {
  var name = document.querySelector('.site-nav .signed-in strong');
  return name ? name.textContent : null;
}

export function restoreUnsentItem(field) {
  var kept = null;
  try {
    kept = JSON.parse(window.sessionStorage.getItem('rewind.unsentItem') || 'null');
    window.sessionStorage.removeItem('rewind.unsentItem');
  } catch (e) { kept = null; }
  if (!kept || kept.path !== window.location.pathname || kept.account !== signedInAccount() || !field || field.value) { return; }
  field.value = kept.text;
  showError('Your session had ended, so “' + kept.text.trim() + '” was not added: it is back in the field; press Enter to add it.');
}

// What a page's refresh that never reached the server says.
export var outOfDate = 'The server cannot be reached, so the page may be out of date. It will catch up once the server answers.';

function errorBox() {
  return document.getElementById('todo-error') || document.getElementById('form-status');
}

// Whether an error is shown now.
export function errorShown() {
  var box = errorBox();
  return Boolean(box && box.classList.contains('error') && box.textContent);
}

// Takes away what showError said (a change that went through since), or
// with `onlyUnreachable`, only that the server could not be reached (a
// request that reached it since).
export function clearError(onlyUnreachable) {
  var box = errorBox();
  if (!box || !box.classList.contains('error')) { return; }
  if (onlyUnreachable && !box.hasAttribute('data-unreachable')) { return; }
  clearTimeout(showError.timer);
  box.textContent = '';
  box.classList.remove('error');
  box.removeAttribute('data-unreachable');
}

// Says `text` politely to a screen reader, through the page's hidden
// status line (#move-status), where the keyboard's actions are told: what
// an add, an undo or a redo did. A page without one says nothing.
export function announce(text) {
  var status = document.getElementById('move-status');
  if (status) { status.textContent = text; }
}

// What "Mark all as complete" and "Clear completed" did, said as above;
// each is called with the change's answer.
export function sayAllMarked() {
  var toggle = document.getElementById('toggle-all');
  announce(toggle && toggle.checked ? 'Marked every item completed.' : 'Marked every item active.');
}

export function sayCleared() {
  announce('Cleared the completed items.');
}

// Says `error` (an ApiError or a sentence) for 6 s; that the page may be
// out of date (a refresh that did not reach the server, a stream cut off)
// stays until a request reaches it (clearError).
export function showError(error) {
  var box = errorBox();
  var text = error && error.message ? error.message : String(error);
  // The API's reasons start in lower case (the CLI puts them after "rewind todo: "); a page's sentences do not.
  var message = text.charAt(0).toUpperCase() + text.slice(1);
  if (!box) { return; }
  box.textContent = message;
  box.classList.add('error');
  clearTimeout(showError.timer);
  if (message === outOfDate) {
    box.setAttribute('data-unreachable', '');
    return;
  }
  box.removeAttribute('data-unreachable');
  showError.timer = setTimeout(function () {
    if (box.textContent === message) { box.textContent = ''; box.classList.remove('error'); }
  }, 6000);
}
