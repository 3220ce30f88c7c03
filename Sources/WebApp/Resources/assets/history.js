// Undo, redo and the history panel, shared by the to-do pages: the buttons
// #todos-undo and #todos-redo, their keyboard shortcuts, and a jump to any
// step of the panel (.history-step[data-step]).

import { api, enqueue, showError } from './api.js';
import { undoRedoShortcut } from './keys.js';

export function setUpHistory(afterChange) {
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
