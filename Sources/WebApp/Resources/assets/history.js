// Undo, redo and the history panel, shared by the to-do pages: the buttons
// #todos-undo and #todos-redo, their keyboard shortcuts, a jump to any
// step of the panel (.history-step[data-step]), the current step kept in
// view in the panel's list when the page opens and after each change, and
// "Show more" (.history-show-more), which lists more steps from then on.

import { announce, api, enqueue, showError } from './api.js';
import { undoRedoShortcut } from './keys.js';

// Scrolls the panel's list (not the page) just enough that the current step
// is in view: to it when it is above or below what the list shows.
export function showCurrentStep() {
  var list = document.querySelector('.history-panel .history-list');
  var current = list && list.querySelector('[aria-current="step"]');
  if (!current) { return; }
  var item = current.closest('li') || current;
  var shown = list.getBoundingClientRect();
  var box = item.getBoundingClientRect();
  if (box.top < shown.top) { list.scrollTop -= shown.top - box.top; }
  else if (box.bottom > shown.bottom) { list.scrollTop += box.bottom - shown.bottom; }
}

// How many steps the panel lists once "Show more" was pressed (the page's
// fragments are asked for with ?steps=), and the step that stays where it
// was in the list while the steps before it come in.
var shownSteps = null;
var anchor = null;
// After "Show more" pressed with the focus on it: the step listed just
// before the button (null when none was), after which the new steps come in.
var edge = null;

// The query of the page's fragment URLs for the panel: '' until "Show
// more" was pressed; `separator` is '?' or '&'.
export function historyQuery(separator) {
  return shownSteps ? separator + 'steps=' + shownSteps : '';
}

// Keeps the anchor step at the height it had in the list.
function keepAnchor() {
  var list = document.querySelector('.history-panel .history-list');
  var step = list && anchor && list.querySelector(anchor.key);
  if (step) { list.scrollTop += step.getBoundingClientRect().top - list.getBoundingClientRect().top - anchor.offset; }
  anchor = null;
}

// "Show more" in a history panel (the to-do pages', a shared list's):
// `refreshPanel` fetches the page's regions again, with historyQuery().
export function setUpShowMore(refreshPanel) {
  document.addEventListener('region-swapped', function (event) {
    if (event.detail.name === 'history' && anchor) { keepAnchor(); }
    if (event.detail.name === 'history' && edge) { focusBeyondEdge(); }
  });
  document.addEventListener('click', function (event) {
    var button = event.target.closest('.history-show-more');
    if (!button) { return; }
    // The first step in view stays in view, where it is.
    var list = button.closest('.history-list');
    var top = list.getBoundingClientRect().top;
    var steps = Array.prototype.slice.call(list.querySelectorAll('.history-step, .shared-step'));
    var first = steps.find(function (step) { return step.getBoundingClientRect().bottom > top; }) || steps[0];
    anchor = first ? { key: stepKey(first), offset: first.getBoundingClientRect().top - top } : null;
    // The keyboard goes on to the first of the steps that come in where the button was.
    var before = steps.filter(function (step) {
      return step.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING;
    }).pop();
    edge = document.activeElement === button ? { key: before ? stepKey(before) : null } : null;
    shownSteps = Number(button.getAttribute('data-steps'));
    refreshPanel();
  });
}

// Puts the keyboard on the first step listed after the edge, where "Show
// more" was, with no scrolling of its own (the list keeps its anchor).
function focusBeyondEdge() {
  var key = edge.key;
  edge = null;
  var step = key && document.querySelector(key);
  var li = step ? step.closest('li').nextElementSibling : document.querySelector('.history-list > li');
  while (li && !li.querySelector('.history-step, .shared-step')) { li = li.nextElementSibling; }
  var next = li ? li.querySelector('.history-step, .shared-step') : step;
  if (next) { next.focus({ preventScroll: true }); }
}

// A selector that finds `step` again in a fresh copy of the panel.
function stepKey(step) {
  return step.hasAttribute('data-step') ? '.history-step[data-step="' + step.getAttribute('data-step') + '"]'
    : '.shared-step[data-seq="' + step.getAttribute('data-seq') + '"]';
}

// `afterChange` after a move of the history, `refreshPanel` for more steps.
export function setUpHistory(afterChange, refreshPanel) {
  showCurrentStep();
  // Before "Show more"'s own listener, which keeps its anchor in place instead.
  document.addEventListener('region-swapped', function (event) {
    if (event.detail.name === 'history' && !anchor) { showCurrentStep(); }
  });
  setUpShowMore(refreshPanel);
  // `jumpedTo`: the name of the step a jump goes to, as the panel lists it.
  function move(kind, body, jumpedTo) {
    return enqueue(function () { return api('POST', '/api/history/' + kind, body); })
      .then(function (data) {
        if (data && data.undone) { announce('Undid ' + data.undone + '.'); }
        else if (data && data.redone) { announce('Redid ' + data.redone + '.'); }
        else if (jumpedTo) { announce('Went to the step ' + jumpedTo + '.'); }
        afterChange(true);
      }, function (error) {
        if (error.status !== 409) { showError(error); }
      });
  }
  document.addEventListener('click', function (event) {
    var button = event.target.closest('button');
    if (!button || button.disabled) { return; }
    if (button.classList.contains('undo') && button.id === 'todos-undo') { move('undo'); }
    else if (button.classList.contains('redo') && button.id === 'todos-redo') { move('redo'); }
    else if (button.classList.contains('history-step')) {
      if (button.getAttribute('aria-current') === 'step') { return; }
      var name = button.querySelector('.history-name');
      move('jump', { step: Number(button.getAttribute('data-step')) }, name ? name.textContent : '');
    }
  });
  document.addEventListener('keydown', function (event) {
    var shortcut = undoRedoShortcut(event);
    if (!shortcut) { return; }
    event.preventDefault();
    var button = document.getElementById('todos-' + shortcut);
    if (button && !button.disabled) { move(shortcut); }
  });
}
