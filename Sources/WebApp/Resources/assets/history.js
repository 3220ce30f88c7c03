// Undo, redo and the history panel, shared by the to-do pages: the buttons
// #todos-undo and #todos-redo, their keyboard shortcuts, a jump to any
// step of the panel (.history-step[data-step]), and the current step kept
// in view in the panel's list when the page opens and after each change.

import { api, enqueue, showError } from './api.js';
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

export function setUpHistory(afterChange) {
  showCurrentStep();
  document.addEventListener('region-swapped', function (event) {
    if (event.detail.name === 'history') { showCurrentStep(); }
  });
  function move(kind, body) {
    return enqueue(function () { return api('POST', '/api/history/' + kind, body); })
      .then(function () { afterChange(true); }, function (error) {
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
      move('jump', { step: Number(button.getAttribute('data-step')) });
    }
  });
  document.addEventListener('keydown', function (event) {
    var shortcut = undoRedoShortcut(event);
    if (!shortcut || document.querySelector('dialog[open]')) { return; }
    event.preventDefault();
    var button = document.getElementById('todos-' + shortcut);
    if (button && !button.disabled) { move(shortcut); }
  });
}
