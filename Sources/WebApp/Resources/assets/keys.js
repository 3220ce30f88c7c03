// Keyboard helpers shared by every page: is a key meant for a text field,
// and is it the undo or redo shortcut (Ctrl/Cmd+Z, Ctrl/Cmd+Shift+Z, Ctrl+Y).

export function isTextField(element) {
  if (!element) { return false; }
  var tag = element.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT' || element.isContentEditable) { return true; }
  if (tag !== 'INPUT') { return false; }
  return ['checkbox', 'radio', 'button', 'submit', 'reset'].indexOf(element.type) < 0;
}

// A drop-down counts as a text field for typed letters (they pick an
// option), not for these shortcuts, which it has no use for. So does the
// empty new-item field, where a page opens with the keyboard: it has no
// typing of its own to undo, so the shortcut undoes the list's last step.
export function undoRedoShortcut(event) {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) { return null; }
  // A confirmation card asks first: nothing behind it changes meanwhile.
  if (document.querySelector('dialog[open]')) { return null; }
  var target = event.target;
  var emptyNewItem = target && target.classList && target.classList.contains('new-todo') && target.value === '';
  if (isTextField(target) && target.tagName !== 'SELECT' && !emptyNewItem) { return null; }
  var key = event.key.toLowerCase();
  if (key === 'z') { return event.shiftKey ? 'redo' : 'undo'; }
  if (key === 'y' && event.ctrlKey && !event.shiftKey) { return 'redo'; }
  return null;
}
