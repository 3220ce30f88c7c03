// The account's own Undo and Redo on a shared list's pages (the list's and
// an item's): the buttons #list-undo and #list-redo and Ctrl+Z /
// Ctrl+Shift+Z / Ctrl+Y outside text fields. Each sends the step its
// button names, read when the press is queued, so that a second press of
// the same step is refused by the server (409) and changes nothing.

import { announce, api, enqueue, showError } from './api.js';
import { undoRedoShortcut } from './keys.js';

// `base`: the list's API path; `refresh` after every press; `say` gets
// the sentences about what an undo left alone.
export function setUpSharedUndo(base, refresh, say) {
  function press(kind) {
    var button = document.getElementById('list-' + kind);
    if (!button || button.disabled) { return; }
    var step = Number(button.getAttribute('data-step'));
    // Disabled, the button loses the focus; the keyboard gets it back
    // once the page shows what the press did.
    var focused = document.activeElement === button;
    button.disabled = true;
    enqueue(function () { return api('POST', base + '/' + kind, { step: step }); }).then(function (data) {
      var messages = data.step && data.step.messages ? data.step.messages : [];
      say(messages);
      // What it left alone is heard from the message line (a status too); "Undid …" beside
      // "Could not undo …" would say two contradicting things.
      if (data.step && data.step.name && !messages.length) { announce((kind === 'undo' ? 'Undid ' : 'Redid ') + data.step.name + '.'); }
      return refresh();
    }, function (error) {
      if (error.status !== 409) { showError(error); }
      return refresh();
    }).then(function () { if (focused) { refocus(kind); } });
  }

  // The same button when it is enabled again, else the other one, else
  // the field that adds an item: never the page's body, where a keyboard
  // user would have to start again from the top.
  function refocus(kind) {
    if (document.activeElement && document.activeElement !== document.body) { return; }
    var other = kind === 'undo' ? 'redo' : 'undo';
    var target = [document.getElementById('list-' + kind), document.getElementById('list-' + other)]
      .find(function (candidate) { return candidate && !candidate.disabled; })
      || document.querySelector('.new-todo');
    if (target) { target.focus(); }
  }

  document.addEventListener('click', function (event) {
    var button = event.target.closest ? event.target.closest('button') : null;
    if (button && button.id === 'list-undo') { press('undo'); }
    if (button && button.id === 'list-redo') { press('redo'); }
  });

  document.addEventListener('keydown', function (event) {
    var shortcut = undoRedoShortcut(event);
    if (!shortcut) { return; }
    event.preventDefault();
    press(shortcut);
  });
}
