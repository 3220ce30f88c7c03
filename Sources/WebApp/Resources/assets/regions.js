// Regions: server-rendered parts marked data-region, replaced by fresh
// copies from a fragment URL when /events says the state changed (and the
// tab's title, from a fresh part's data-page-title, and an item page's way
// back, from its data-back-text). Each swap
// keeps the focus and the scroll of lists marked data-keep-scroll, and is
// announced by a 'region-swapped' event on the document (detail: the
// region's name and its new element).

import { ApiError, clearError, enqueue, errorShown, keepUnsentItem, outOfDate, pending, showError } from './api.js';

export function swapRegions(html, skip) {
  var fresh = new DOMParser().parseFromString('<body>' + html + '</body>', 'text/html');
  // The tab follows a rename (of the list, of the item), also while a region is kept.
  var titled = fresh.querySelector('[data-page-title]');
  if (titled) { document.title = titled.getAttribute('data-page-title'); }
  // The way back names the list as it is now (an item's page).
  var back = fresh.querySelector('[data-back-text]');
  var link = back && document.querySelector('.back-link');
  if (link) { link.textContent = back.getAttribute('data-back-text'); }
  fresh.querySelectorAll('[data-region]').forEach(function (replacement) {
    var name = replacement.getAttribute('data-region');
    var current = document.querySelector('[data-region="' + name + '"]');
    if (!current || (skip && skip(name, current))) { return; }
    if (current.querySelector('dialog[open]')) { return; }
    var hadFocus = document.activeElement && current.contains(document.activeElement);
    var focusedID = hadFocus ? focusKey(document.activeElement, name) : null;
    var scrolled = scrollPositions(current);
    var fresher = document.importNode(replacement, true);
    current.replaceWith(fresher);
    restoreScroll(fresher, scrolled);
    if (focusedID) { restoreFocus(focusedID); }
    if (hadFocus && (!document.activeElement || document.activeElement === document.body)) { focusNearby({ preventScroll: true }); }
    document.dispatchEvent(new CustomEvent('region-swapped', { detail: { name: name, region: fresher } }));
  });
}

// Where each list marked data-keep-scroll is scrolled to, by its mark, so
// that a swap does not send it back to its top.
function scrollPositions(region) {
  var positions = {};
  region.querySelectorAll('[data-keep-scroll]').forEach(function (element) {
    positions[element.getAttribute('data-keep-scroll')] = element.scrollTop;
  });
  return positions;
}

function restoreScroll(region, positions) {
  region.querySelectorAll('[data-keep-scroll]').forEach(function (element) {
    var top = positions[element.getAttribute('data-keep-scroll')];
    if (top) { element.scrollTop = top; }
  });
}

// Keeps the focus on "the same" control across a swap (a selector, and the
// row's for a control of a row): by its id, its
// form field, its history step, or its row (an item's `li[data-id]`, a
// list's `[data-list]`) and what tells it from the row's other controls;
// else its first class in the region `region`. A control of a row is never
// looked for in another row: a refresh must not put the keyboard on
// another list's "Stop sharing" or "Delete…", where a second Enter would
// act on what the person did not choose.
function focusKey(element, region) {
  if (element.id) { return { selector: '#' + element.id }; }
  // A field of a form (the item's page), by its name (and a radio button's value).
  if (element.form && element.form.id && element.name) {
    var field = '#' + element.form.id + ' [name="' + element.name + '"]';
    return { selector: element.type === 'radio' ? field + '[value="' + element.value + '"]' : field };
  }
  var step = element.getAttribute('data-step');
  if (step !== null) { return { selector: '.history-step[data-step="' + step + '"]' }; }
  var row = element.closest('li[data-id], [data-list]');
  // Its own class ("button" is every button's), else its form's and its tag:
  // Share is `form.share-list button`, not the row's first button, Rename.
  var own = Array.prototype.find.call(element.classList, function (name) { return name !== 'button'; });
  var form = element.closest('form');
  var part = own ? '.' + own : form && form.classList.length ? 'form.' + form.classList[0] + ' ' + element.tagName.toLowerCase() : null;
  if (row && part) {
    var rowSelector = row.hasAttribute('data-id') ? 'li[data-id="' + row.getAttribute('data-id') + '"]'
      : '[data-list="' + row.getAttribute('data-list') + '"]';
    // One button per member: "Stop sharing with bob" is not "… with cy".
    var account = element.getAttribute('data-account');
    var which = account === null ? '' : '[data-account="' + quoted(account) + '"]';
    return { selector: rowSelector + ' ' + part + which, row: rowSelector };
  }
  // A link by where it leads: the filter chosen ("Active" had no class
  // before it was chosen, "selected" after).
  if (element.tagName === 'A' && element.hasAttribute('href')) {
    return { selector: '[data-region="' + region + '"] a[href="' + quoted(element.getAttribute('href')) + '"]' };
  }
  if (element.classList.length) { return { selector: '[data-region="' + region + '"] .' + element.classList[0] }; }
  return null;
}

// `text` inside the double quotes of an attribute selector.
function quoted(text) {
  return text.replace(/["\\]/g, '\\$&');
}

// Where the keyboard goes when the control it was on is gone (after a
// swap, "Clear completed" once nothing is completed; after a card, its
// opener): Undo, which can take back what just happened, else the field
// that adds an item, else the way back, else (the lists page) the field
// that makes a list. `options` go to focus().
export function focusNearby(options) {
  var target = document.querySelector('.undo-bar button:not([disabled])') ||
    document.querySelector('.new-todo') || document.querySelector('.back-link') ||
    document.getElementById('new-list-name');
  if (target) { target.focus(options); }
}

// `key`: focusKey's `selector`, and for a control of a row the row's.
function restoreFocus(key) {
  var element = document.querySelector(key.selector);
  // The control is gone from its row (the member no longer shares the
  // list): the keyboard goes to the row's first control, its name, which
  // does nothing on Enter but open it.
  if (!element && key.row) {
    var row = document.querySelector(key.row);
    element = row && row.querySelector('a[href], input, button:not([disabled])');
  }
  if (!element) { return; }
  // Redo pressed until there is nothing left to redo: the keyboard goes to
  // Undo beside it, not to the page's start.
  if (element.disabled) {
    var bar = element.closest('.undo-bar');
    element = bar && bar.querySelector('button:not([disabled])');
    if (!element) { return; }
  }
  element.focus();
}

// The list was deleted, or is no longer shared with this account, while
// one of its pages (`main`: the list's, an item's) was open: say so in
// place of what it showed, which is no longer theirs, naming the list.
// What the person had typed and not saved (a new item, a title being
// edited, the item's form) stays on the page, to be copied.
export function showListGone(main) {
  // Said once: a title being edited, saved as its row goes, would find the list gone again.
  if (main.querySelector('.list-gone')) { return; }
  var heading = main.querySelector('.list-title');
  var name = heading ? heading.textContent.trim() : '';
  var typed = [];
  main.querySelectorAll('input:not([type]), input[type="text"], textarea').forEach(function (field) {
    if (field.value.trim() && field.value !== field.defaultValue) { typed.push(field.value.trim()); }
  });
  var notice = document.createElement('p');
  notice.className = 'list-gone';
  notice.setAttribute('role', 'status');
  notice.textContent = 'This list was deleted, or it is no longer shared with you' + (name ? ': “' + name + '”.' : '.');
  var shown = [notice];
  if (typed.length) {
    var said = document.createElement('p');
    said.textContent = 'What you had typed, and was not saved, is below to copy.';
    var kept = document.createElement('textarea');
    kept.className = 'list-gone-typed';
    kept.readOnly = true;
    kept.rows = Math.min(typed.length + 1, 6);
    kept.setAttribute('aria-label', 'What you had typed, not saved');
    kept.value = typed.join('\n');
    shown.push(said, kept);
  }
  var back = document.createElement('a');
  back.href = '/lists';
  back.textContent = '← All lists';
  shown.push(back);
  main.replaceChildren.apply(main, shown);
  // The tab no longer names a list the account cannot open.
  document.title = 'List gone · Rewind';
}

export function fetchHTML(path) {
  return fetch(path, { credentials: 'same-origin', headers: { 'Accept': 'text/html' } }).catch(function () {
    throw new ApiError(outOfDate, 0);
  }).then(function (response) {
    if (!response.ok) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        throw new ApiError(data.error || response.statusText, response.status);
      });
    }
    return response.text();
  });
}

// One refresh at a time; a refresh asked for while one waits in the
// queue is the same refresh.
export function makeRefresher(load) {
  var waiting = false;
  return function refresh() {
    if (waiting) { return pending(); }
    waiting = true;
    return enqueue(function () {
      waiting = false;
      return load();
    }).then(function () {
      // The server answered: what said it could not be reached is over.
      clearError(true);
    }, function (error) {
      // A session that ended: sign in again (the page says why), and come
      // back here.
      if (error instanceof ApiError && error.status === 401) {
        keepUnsentItem();
        location.assign('/signin?ended=1&next=' + encodeURIComponent(location.pathname + location.search));
        return;
      }
      // A change that failed just before said why already (that nothing was changed).
      if (error instanceof ApiError && error.status === 0 && errorShown()) { return; }
      showError(error);
    });
  };
}

// `path` and `name`: the stream and its change event (the local list's by
// default; a shared list's page passes its own). `shows`, if given, tells
// whether the page already shows the state an event's id names: such an
// event fetches nothing.
//
// A stream the server refuses (the list was deleted or is no longer
// shared, the session ended, too many streams, a server shutting down, a
// store that cannot be read for a moment) is closed for good by the
// browser: the page's own refresh meets the same answer and says so, and
// a new stream is tried after 1 s, then 2, 4 … up to a minute, until one
// opens; the page then catches up with what it missed.
export function listenForChanges(refresh, path, name, shows) {
  if (!window.EventSource) { return; }
  // The state the page was drawn at: a change made before the stream
  // starts is told at once (a first connection sends no Last-Event-ID).
  var since = document.querySelector('meta[name="rewind-events-since"]');
  var url = path || '/events';
  if (since) { url += (url.indexOf('?') < 0 ? '?' : '&') + 'since=' + encodeURIComponent(since.content); }
  var delay = 1000;
  var longest = 15000;
  var retry = null;
  var cutOff = null;
  var leaving = false;
  var source = connect(false);

  function connect(again) {
    var stream = new EventSource(url);
    var opened = false;
    var seenID = false;
    stream.addEventListener(name || 'todos', function (event) {
      seenID = event.lastEventId !== '';
      if (shows && seenID && shows(event.lastEventId)) { return; }
      refresh();
    });
    stream.addEventListener('open', function () {
      // After a reconnect, the browser sends the last event's id and the
      // server starts with the current state's event when the list moved;
      // a page that saw no event yet, or whose stream is new, catches up
      // itself.
      if ((opened && !seenID) || (again && !opened)) { refresh(); }
      // The server answers again: the page is no longer cut off from it.
      clearTimeout(cutOff);
      cutOff = null;
      clearError(true);
      opened = true;
      delay = 1000;
    });
    stream.addEventListener('error', function () {
      if (leaving) { return; }
      if (stream.readyState !== EventSource.CLOSED) {
        // The connection dropped and the browser tries again by itself:
        // cut off for more than a moment (the server or its instance
        // gone), the page says it may be out of date until it is back.
        if (opened && !cutOff) {
          cutOff = setTimeout(function () { if (!errorShown()) { showError(outOfDate); } }, 3000);
        }
        return;
      }
      // Said once: a stream refused again and again changes nothing on the page.
      if (!again || opened) { refresh(); }
      retry = setTimeout(function () { source = connect(true); }, delay);
      delay = Math.min(delay * 2, longest);
    });
    return stream;
  }

  window.addEventListener('pagehide', function () {
    leaving = true;
    clearTimeout(retry);
    clearTimeout(cutOff);
    source.close();
  });
}
