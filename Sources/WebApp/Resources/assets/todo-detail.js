// The detail view of one item (/todos/items/{id}, or a shared list's item,
// /lists/{list}/items/{id}): the form of every field (due date, location),
// Save, and the live refresh that keeps what the person is typing. A shared
// list's item names its API, its fragment and its list in data attributes
// of the page's main element, and has the account's Undo and Redo
// (shared-undo.js) instead of the list's history.

import { ApiError, api, enqueue, showError } from './api.js';
import { fetchHTML, listenForChanges, makeRefresher, showListGone, swapRegions } from './regions.js';
import { historyQuery, setUpHistory } from './history.js';
import { setUpModals, watchDialog } from './modal-card.js';
import { setUpSharedUndo } from './shared-undo.js';
import { browserTimeZone, followBrowserTimeZone } from './time-zone.js';

followBrowserTimeZone();

var main = document.querySelector('main.detail-page');
var id = main.getAttribute('data-id');
var list = main.getAttribute('data-list');
var itemAPI = main.getAttribute('data-api') || '/api/todos/' + id;
var fragment = main.getAttribute('data-fragment') || '/todos/items/' + id + '/fragment';
var dirty = false;
// Typing after Save was pressed must survive the refresh that follows it.
var typedSinceSave = false;
// "Saved." stays for a few seconds, through the live refreshes the save causes.
var savedAt = 0;
// What the account's last undo or redo left alone (a shared list's item), said after the refresh.
var leftAlone = '';
// What the page says while the item is gone; taken away when it is back.
var goneText = list
  ? 'This item is gone: it was deleted, or an undo took back the step that made it. If that step was yours, Undo brings it back.'
  : 'This item is gone: it was deleted, or an undo took back the step that made it. The history has the step that brings it back.';
// Each part of the form (title, details, completed, due, location) as it
// was drawn: Save sends only the parts the person changed, so that what
// someone else changed meanwhile in the others is not written back.
var drawn = null;
// The form's parts, each with the keys of the body it sets.
var partKeys = {
  title: ['title'], details: ['details'], completed: ['completed'], due: ['due', 'dueText', 'timeZone'], location: ['location']
};
// Each part as a sentence names it.
var partNames = {
  title: 'the title', details: 'the details', completed: 'whether it is completed', due: 'the due date', location: 'the location'
};
// The parts changed here and, since, elsewhere: what a Save would put in
// the place of another's change, said once.
var overtaken = {};


function form() { return document.getElementById('detail-form'); }

function showSaved() {
  var status = document.getElementById('form-status');
  if (status && Date.now() - savedAt < 4000) { status.textContent = 'Saved.'; status.classList.remove('error'); }
}

function localValue(iso) {
  var date = new Date(iso);
  if (isNaN(date.getTime())) { return ''; }
  function two(n) { return (n < 10 ? '0' : '') + n; }
  return date.getFullYear() + '-' + two(date.getMonth() + 1) + '-' + two(date.getDate()) +
    'T' + two(date.getHours()) + ':' + two(date.getMinutes());
}

// The date fields of `root` in the browser's time zone, from the moment
// the server wrote (data-iso); with `once`, each field only the first
// time, so that what the person typed in a kept form is not put back.
function fillDates(root, once) {
  root.querySelectorAll('input[type="datetime-local"][data-iso]').forEach(function (input) {
    var iso = input.getAttribute('data-iso');
    if (iso) { input.value = localValue(iso); }
    if (once) { input.removeAttribute('data-iso'); }
  });
}

function prepare() {
  var current = form();
  if (!current) { return; }
  fillDates(current, true);
  showChoices(current);
  document.querySelectorAll('dialog[data-modal-card]').forEach(watchDialog);
}

function showChoices(current) {
  var due = current.querySelector('input[name="dueKind"]:checked');
  current.querySelectorAll('[data-due]').forEach(function (block) {
    block.hidden = !due || block.getAttribute('data-due') !== due.value;
  });
  var location = current.querySelector('input[name="locationKind"]:checked');
  current.querySelectorAll('[data-location]').forEach(function (block) {
    block.hidden = !location || block.getAttribute('data-location') !== location.value;
  });
}

// Whether the form holds something the person changed and did not save:
// a field touched and put back as it was is no change (the page then goes
// on following the item), a field that does not read as a valid item is.
function edited() {
  var current = form();
  if (!dirty || !current) { return false; }
  try { return Object.keys(changes(current, collect(current))).length > 0; } catch (e) { return true; }
}

// The element of the form that holds `part`, in `root` (the page's form
// or a fresh one).
function partElement(root, part) {
  var field = function (name) { return root.querySelector('[name="' + name + '"]'); };
  switch (part) {
    case 'title': return field('title') && field('title').closest('label');
    case 'details': return field('details') && field('details').closest('label');
    case 'completed': return field('completed') && field('completed').closest('label');
    case 'due': return root.querySelector('.due-fieldset');
    case 'location': return root.querySelector('.location-fieldset');
  }
  return null;
}

// While the form holds typing not saved, the rest of the page still
// follows the item: the heading and the summary, and each part of the
// form the person did not change (nor is in), from the fresh `html`.
function followUntouchedParts(html) {
  var current = form();
  var page = new DOMParser().parseFromString('<body>' + html + '</body>', 'text/html');
  var region = page.querySelector('[data-region="detail"]');
  var fresh = page.getElementById('detail-form');
  if (!current || !region || !fresh || !drawn) { return; }
  ['.detail-title', '.detail-summary'].forEach(function (selector) {
    var mine = document.querySelector('[data-region="detail"] ' + selector);
    var theirs = region.querySelector(selector);
    if (mine && theirs) { mine.replaceWith(document.importNode(theirs, true)); }
  });
  fillDates(fresh, false);
  var freshParts = drawnParts(fresh);
  var now = drawnParts(current);
  // A form that does not read as an item (a date half typed) is kept whole.
  if (!freshParts || !now) { return; }
  sayOvertaken(Object.keys(partKeys).filter(function (part) {
    return now[part] !== drawn[part] && freshParts[part] !== drawn[part] && freshParts[part] !== now[part];
  }));
  Object.keys(partKeys).forEach(function (part) {
    if (now[part] !== drawn[part] || now[part] === freshParts[part]) { return; }
    var mine = partElement(current, part);
    var theirs = partElement(fresh, part);
    if (!mine || !theirs || mine.contains(document.activeElement)) { return; }
    mine.replaceWith(document.importNode(theirs, true));
    drawn[part] = freshParts[part];
  });
}

// Says which parts the person is changing were changed elsewhere since
// they began, so that a Save does not replace another's change unseen.
function sayOvertaken(parts) {
  var fresh = parts.filter(function (part) { return !overtaken[part]; });
  if (!fresh.length) { return; }
  parts.forEach(function (part) { overtaken[part] = true; });
  var status = document.getElementById('form-status');
  if (!status) { return; }
  var names = parts.map(function (part) { return partNames[part]; });
  var listed = names.length === 1 ? names[0] : names.slice(0, -1).join(', ') + ' and ' + names[names.length - 1];
  status.textContent = 'Changed elsewhere since you began: ' + listed + '. Save puts what you typed in its place.';
  status.classList.remove('error');
}

// The page's regions but the item's, from the page the item belonged to:
// Undo, Redo and the history go on following the list once the item is
// gone (deleted, or taken back by an undo).
function refreshAroundGoneItem() {
  var around = list ? '/lists/' + list + '/fragment' : '/todos/fragment' + historyQuery('?');
  return fetchHTML(around).then(function (html) {
    // The list's Undo and Redo, not the list page's own controls (its
    // order, "Delete all items…"), which have no place here.
    var page = new DOMParser().parseFromString('<body>' + html + '</body>', 'text/html');
    page.querySelectorAll('[data-region="toolbar"] > :not(.undo-bar)').forEach(function (control) { control.remove(); });
    swapRegions(page.body.innerHTML, function (name) { return name === 'detail'; });
  });
}

// While the item is gone, its form and its Delete… cannot be used, and
// the page says so under its heading; all comes back with the item (an
// undo, a redo, a jump). The keyboard, when it was on a control that
// goes, goes to Undo, which can bring the item back.
function showGone(gone) {
  var region = document.querySelector('[data-region="detail"]');
  if (!region) { return; }
  var hadFocus = region.contains(document.activeElement);
  region.querySelectorAll(gone ? 'button, input, textarea, select' : '[data-gone-disabled]').forEach(function (control) {
    if (gone && control.disabled) { return; }
    control.disabled = gone;
    if (gone) { control.setAttribute('data-gone-disabled', ''); } else { control.removeAttribute('data-gone-disabled'); }
  });
  var notice = region.querySelector('.detail-gone');
  if (gone && !notice) {
    notice = document.createElement('p');
    notice.className = 'detail-gone';
    notice.textContent = goneText;
    var summary = region.querySelector('.detail-summary');
    if (summary) { summary.after(notice); }
  } else if (!gone && notice) {
    notice.remove();
  }
  if (gone && hadFocus && (!document.activeElement || document.activeElement === document.body)) {
    var undo = document.querySelector('.undo-bar button:not([disabled])');
    if (undo) { undo.focus(); }
  }
}

var refresh = makeRefresher(function () {
  return fetchHTML(fragment + (list ? '' : historyQuery('?'))).then(function (html) {
    // Typing after Save wins over the saved form, whenever it happened.
    var force = refresh.force && !typedSinceSave;
    refresh.force = false;
    var redrawn = false;
    var keepForm = edited();
    swapRegions(html, function (name) {
      var keep = name === 'detail' && keepForm && !force;
      if (name === 'detail' && !keep) { redrawn = true; }
      return keep;
    });
    if (!redrawn) { followUntouchedParts(html); }
    if (force || !dirty) { dirty = false; }
    prepare();
    if (redrawn) {
      drawn = drawnParts(form());
      overtaken = {};
    }
    var status = document.getElementById('form-status');
    // The item is back (an undo, a redo): what said it was gone is over, also over a form kept.
    if (status && status.textContent === goneText) { status.textContent = ''; }
    showGone(false);
    showSaved();
    if (status && leftAlone) { status.textContent = leftAlone; status.classList.remove('error'); leftAlone = ''; }
  }, function (error) {
    if (error.status === 404) {
      var status = document.getElementById('form-status');
      if (status) {
        status.textContent = goneText;
        status.classList.remove('error');
      }
      return refreshAroundGoneItem().then(function () { showGone(true); }, function (around) {
        // The list itself is gone, or no longer shared with this account.
        if (list && around instanceof ApiError && around.status === 404) { showListGone(main); return; }
        throw around;
      });
    }
    throw error;
  });
});

// The date and time the field `name` holds, as ISO text; null when it is
// empty. A field half filled in (a date without its time) or holding a
// year past 9999 is refused, never read as empty: an end left out would
// be saved as no end.
function isoFrom(input, name, what) {
  if (!input) { return null; }
  if (input.validity && input.validity.badInput) {
    throw refused(what + ' is not complete: give its date and its time, or clear it.', name);
  }
  if (!input.value) { return null; }
  var date = new Date(input.value);
  if (isNaN(date.getTime()) || date.getFullYear() > 9999 || date.getFullYear() < 1) {
    throw refused(what + ' must lie in the years 1 to 9999.', name);
  }
  return date.toISOString();
}

// A decimal number as a person writes one ("50.73", "-7,1"), or null:
// Number() alone would take "0x10", "1e2" and "Infinity".
function decimal(text) {
  var written = text.trim().replace(',', '.');
  return /^[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)$/.test(written) ? Number(written) : null;
}

function collect(current) {
  var field = function (name) { return current.elements.namedItem(name); };
  var body = {
    title: field('title').value,
    details: field('details').value,
    completed: field('completed').checked
  };
  var dueKind = current.querySelector('input[name="dueKind"]:checked');
  switch (dueKind ? dueKind.value : 'none') {
    case 'none': body.due = null; break;
    case 'date':
      body.due = { kind: 'date', date: isoFrom(field('dueDate'), 'dueDate', 'The due date') };
      if (!body.due.date) { throw refused('Choose the date and time the item is due.', 'dueDate'); }
      break;
    case 'span':
      body.due = {
        kind: 'span', start: isoFrom(field('spanStart'), 'spanStart', 'The start'),
        end: isoFrom(field('spanEnd'), 'spanEnd', 'The end')
      };
      if (!body.due.start) { throw refused('Choose when the time span starts.', 'spanStart'); }
      if (body.due.end && Date.parse(body.due.end) <= Date.parse(body.due.start)) {
        throw refused('The time span must end after it starts.', 'spanEnd');
      }
      break;
    case 'duration':
      var amount = field('durationAmount').value.trim();
      body.due = {
        kind: 'duration', start: isoFrom(field('durationStart'), 'durationStart', 'The start'), amount: Number(amount),
        unit: field('durationUnit').value
      };
      if (!body.due.start) { throw refused('Choose when the duration starts.', 'durationStart'); }
      // Digits only: parseInt would read "1.5" as 1 and "2x" as 2.
      if (!/^[0-9]+$/.test(amount) || !Number.isSafeInteger(body.due.amount) || body.due.amount < 1) {
        throw refused('The duration must be a whole number of 1 or more, such as 3.', 'durationAmount');
      }
      break;
    case 'text':
      body.dueText = field('dueText').value;
      body.timeZone = browserTimeZone();
      break;
  }
  var locationKind = current.querySelector('input[name="locationKind"]:checked');
  switch (locationKind ? locationKind.value : 'none') {
    case 'none': body.location = null; break;
    case 'address':
      body.location = {
        kind: 'address', street: field('street').value, city: field('city').value,
        zipCode: field('zipCode').value, country: field('country').value
      };
      break;
    case 'coordinate':
      var latitude = decimal(field('latitude').value);
      var longitude = decimal(field('longitude').value);
      if (latitude === null) { throw refused('The latitude must be a number between -90 and 90, such as 50.73.', 'latitude'); }
      if (longitude === null) { throw refused('The longitude must be a number between -180 and 180, such as 7.10.', 'longitude'); }
      body.location = { kind: 'coordinate', latitude: latitude, longitude: longitude };
      break;
    case 'directions':
      var steps = field('steps').value.split('\n').map(function (s) { return s.trim(); }).filter(function (s) { return s; });
      body.location = { kind: 'directions', steps: steps };
      break;
  }
  return body;
}

// Each part of `body` as a JSON text, to compare.
function partsOf(body) {
  var texts = {};
  Object.keys(partKeys).forEach(function (part) {
    texts[part] = JSON.stringify(partKeys[part].map(function (key) { return body[key]; }));
  });
  return texts;
}

// The parts of the form as it is drawn (`null` when it does not hold a
// valid item).
function drawnParts(current) {
  if (!current) { return null; }
  try { return partsOf(collect(current)); } catch (e) { return null; }
}

// The parts of `body` that differ from the form as drawn. A due date
// typed as text that is still the text the page wrote is not a change
// (the page wrote it in the server's time zone, which the browser's may
// not be).
function changes(current, body) {
  var now = partsOf(body);
  var text = current.elements.namedItem('dueText');
  var untouchedText = body.dueText !== undefined && text && text.value === text.defaultValue && text.defaultValue !== '';
  var changed = {};
  Object.keys(partKeys).forEach(function (part) {
    if (drawn && now[part] === drawn[part]) { return; }
    if (part === 'due' && untouchedText) { return; }
    partKeys[part].forEach(function (key) { if (body[key] !== undefined) { changed[key] = body[key]; } });
  });
  return changed;
}

// The units after the duration typed: "1 day", "3 days" (each option's
// value is the plural).
function nameUnits(current) {
  var amount = current.elements.namedItem('durationAmount');
  var unit = current.elements.namedItem('durationUnit');
  if (!amount || !unit) { return; }
  var one = amount.value.trim() === '1';
  Array.prototype.forEach.call(unit.options, function (option) {
    option.textContent = one ? option.value.slice(0, -1) : option.value;
  });
}

document.addEventListener('input', function (event) {
  var current = event.target.closest('#detail-form');
  if (!current) { return; }
  event.target.removeAttribute('aria-invalid');
  dirty = true;
  typedSinceSave = true;
  if (event.target.name === 'durationAmount') { nameUnits(current); }
});
document.addEventListener('change', function (event) {
  var current = event.target.closest('#detail-form');
  if (!current) { return; }
  dirty = true;
  typedSinceSave = true;
  showChoices(current);
  // A field marked as refused that another choice hid is no longer at
  // fault, nor is what was said of it.
  current.querySelectorAll('[aria-invalid]').forEach(function (field) {
    if (field.offsetParent !== null) { return; }
    field.removeAttribute('aria-invalid');
    var status = document.getElementById('form-status');
    if (status && status.classList.contains('error') && field.getAttribute('aria-describedby') === 'form-status') {
      status.textContent = '';
      status.classList.remove('error');
    }
  });
});
// What the form refuses before sending, naming the field at fault (its `name`).
function refused(message, name) {
  var error = new ApiError(message);
  error.field = name;
  return error;
}

// A save refused, said under the form and scrolled into view (the form
// can be taller than the window): in the form's words, without the API's
// "invalid field “dueText”: " before the reason.
function sayRefused(error) {
  var status = document.getElementById('form-status');
  if (!status) { showError(error); return; }
  var text = String(error && error.message ? error.message : error);
  var named = /^invalid field “([^”]*)”: /.exec(text);
  // The accepted forms of a due date are in the field's label already.
  var message = text.replace(/^invalid field “[^”]*”: /, '').replace(/ Accepted forms: .*$/, '');
  status.textContent = message.charAt(0).toUpperCase() + message.slice(1);
  status.classList.add('error');
  // The API names a part of a field by its path ("location.latitude"); the form, by its last name.
  var name = named ? named[1].split('.').pop() : (error && error.field) || (/^A title /.test(text) ? 'title' : null);
  var field = name && form() ? form().elements.namedItem(name) : null;
  if (field && field.focus) {
    // The field at fault, said to be, and described by the reason.
    field.setAttribute('aria-invalid', 'true');
    field.setAttribute('aria-describedby', 'form-status');
    field.focus();
  }
  status.scrollIntoView({ block: 'nearest' });
}

document.addEventListener('submit', function (event) {
  var current = event.target.closest('#detail-form');
  if (!current) { return; }
  event.preventDefault();
  var status = document.getElementById('form-status');
  var body;
  try { body = changes(current, collect(current)); } catch (error) { sayRefused(error); return; }
  if (Object.keys(body).length === 0) {
    if (status) { status.textContent = 'Nothing changed to save.'; status.classList.remove('error'); }
    // Nothing to keep: the form follows the item again at its next change.
    dirty = false;
    return;
  }
  typedSinceSave = false;
  enqueue(function () { return api('PATCH', itemAPI, body); }).then(function () {
    savedAt = Date.now();
    // Replace the form with the saved item unless the person went on typing.
    dirty = typedSinceSave;
    refresh.force = !typedSinceSave;
    refresh();
  }, function (error) {
    // The item (or its list) went while the form was open: the refresh says which, and keeps the typing.
    if (error instanceof ApiError && error.status === 404) { refresh(); return; }
    sayRefused(error);
  });
});

// "← All to-dos" goes back to the list as it was left (its filter and
// search) when this page was opened from it (todos.js notes where).
var backLink = document.querySelector('.back-link');
var cameFrom = null;
try { cameFrom = JSON.parse(window.sessionStorage.getItem('rewind.detailFrom') || 'null'); } catch (e) { cameFrom = null; }
if (backLink && cameFrom && cameFrom.id === id && /^\/todos(\?[^#]*)?(#.*)?$/.test(cameFrom.url)) {
  backLink.href = cameFrom.url;
  // The list puts the keyboard back on this item's Details (todos.js).
  backLink.addEventListener('click', function () {
    try { window.sessionStorage.setItem('rewind.detailBack', id); } catch (e) { /* No storage: the list's usual focus. */ }
  });
}

// After an undo or a redo the form shows the item as it is then, unless it
// holds typing not saved yet, which it keeps (Save sends only that); what
// the last save said is over.
function afterUndo() {
  savedAt = 0;
  var status = document.getElementById('form-status');
  if (status && status.textContent === 'Saved.') { status.textContent = ''; }
  typedSinceSave = false;
  refresh.force = !edited();
  // Its end is when the page shows the step: Undo and Redo are enabled
  // again, and the keyboard can go back to the one pressed.
  return refresh();
}
if (list) {
  // What an undo left alone (someone else changed it since) is said under the form.
  setUpSharedUndo('/api/lists/' + list, afterUndo, function (messages) { leftAlone = messages.join(' '); });
} else {
  setUpHistory(afterUndo, refresh);
}
setUpModals(function () { refresh(); });
prepare();
drawn = drawnParts(form());
if (list) { listenForChanges(refresh, '/lists/' + list + '/events', 'list'); } else { listenForChanges(refresh); }
