// ModalCard (Sources/WebApp/HTML/ModalCard.swift): open from
// [data-opens-modal], focus the safe button, Escape or the safe button
// cancels, the focus returns to the opener.

import { api, enqueue, showError } from './api.js';
import { focusNearby } from './regions.js';

var modalOpener = null;

function openModal(id, opener) {
  var dialog = document.getElementById(id);
  if (!dialog || dialog.open) { return; }
  modalOpener = opener;
  if (typeof dialog.showModal === 'function') { dialog.showModal(); } else { dialog.setAttribute('open', ''); }
  var safe = dialog.querySelector('[data-modal-role="cancel"]');
  if (safe) { safe.focus(); }
}

function closeModal(dialog, value) {
  if (typeof dialog.close === 'function') { dialog.close(value); } else { dialog.removeAttribute('open'); onModalClosed(); }
}

function onModalClosed() {
  var opener = modalOpener;
  modalOpener = null;
  // A refresh may have drawn the opener again while the card was open: the same button, found by its id.
  if (opener && !document.contains(opener) && opener.id) { opener = document.getElementById(opener.id); }
  if (opener && document.contains(opener) && !opener.disabled) {
    opener.focus();
  } else {
    // The opener is gone or off (Delete all on a list now empty): Undo, which takes back what was done.
    focusNearby();
  }
}

export function setUpModals(afterRequest) {
  document.addEventListener('click', function (event) {
    var opener = event.target.closest('[data-opens-modal]');
    if (opener && !opener.disabled) {
      event.preventDefault();
      openModal(opener.getAttribute('data-opens-modal'), opener);
      return;
    }
    var button = event.target.closest('dialog[data-modal-card] button[data-action]');
    if (!button) { return; }
    var dialog = button.closest('dialog');
    var action = button.getAttribute('data-action');
    if (action === 'dismiss') { closeModal(dialog, 'cancel'); return; }
    if (action === 'event') {
      closeModal(dialog, 'confirm');
      dialog.dispatchEvent(new CustomEvent(button.getAttribute('data-event'), { bubbles: true }));
      return;
    }
    if (action === 'request') {
      button.disabled = true;
      var then = button.getAttribute('data-then');
      enqueue(function () {
        return api(button.getAttribute('data-method'), button.getAttribute('data-path'));
      }).then(function () {
        button.disabled = false;
        closeModal(dialog, 'confirm');
        if (then) { window.location.assign(then); } else { afterRequest(dialog); }
      }, function (error) {
        button.disabled = false;
        closeModal(dialog, 'cancel');
        showError(error);
        // What was to be deleted may be gone already: the page catches up and says so.
        if (error && error.status === 404) { afterRequest(dialog, error); }
      });
    }
  });
  document.querySelectorAll('dialog[data-modal-card]').forEach(watchDialog);
}

export function watchDialog(dialog) {
  if (dialog.getAttribute('data-watched')) { return; }
  dialog.setAttribute('data-watched', 'yes');
  dialog.addEventListener('close', onModalClosed);
}
