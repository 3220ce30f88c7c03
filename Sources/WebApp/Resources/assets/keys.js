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
// option), not for these shortcuts, which it has no use for.
export function undoRedoShortcut(event) {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) { return null; }
  // A confirmation card asks first: nothing behind it changes meanwhile.
  if (document.querySelector('dialog[open]')) { return null; }
  if (isTextField(event.target) && event.target.tagName !== 'SELECT') { return null; }
  var key = event.key.toLowerCase();
  if (key === 'z') { return event.shiftKey ? 'redo' : 'undo'; }
  if (key === 'y' && event.ctrlKey && !event.shiftKey) { return 'redo'; }
  return null;
}
