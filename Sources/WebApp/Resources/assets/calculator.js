// The calculator page (/calculator): keys (clicked or typed) go to the
// server, which answers with the calculator's state; undo, redo, the tape.
// The browser's other tabs of the page show each state as it comes (one
// calculator per browser: its cookie), and a tab coming back into view asks
// for the state in case it missed one.

import { api, enqueue } from './api.js';
import { isTextField, undoRedoShortcut } from './keys.js';

var display = document.getElementById('calc-display');
var spoken = document.getElementById('calc-spoken');
var undo = document.getElementById('calc-undo');
var redo = document.getElementById('calc-redo');
var tape = document.getElementById('calc-tape');
var tapeEmpty = document.querySelector('.tape-empty');
var dropped = document.getElementById('calc-dropped');
var failure = document.getElementById('calc-error');
var keypad = document.querySelector('.keypad');
var keys = Array.prototype.slice.call(keypad.querySelectorAll('.key'));
// The keypad's width comes from its button configuration (1 to 12
// columns): the page and the keypad take it from --columns (app.css).
document.querySelector('.calculator-page').style.setProperty('--columns', String(Number(keypad.getAttribute('data-columns')) || 4));

// A number too long for the display is drawn smaller, down to a third of
// the display's size, so that it shows whole, its sign and exponent
// included, on a phone 320 px wide too (-9.999999999999994e95); past that
// the display scrolls to its end, where the digits typed last and the
// exponent are.
function fitDisplay() {
  display.style.fontSize = '';
  // An error wraps onto a second line instead (app.css).
  if (display.getAttribute('data-error')) { return; }
  var style = getComputedStyle(display);
  var padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  var room = display.clientWidth - padding;
  var text = display.scrollWidth - padding;
  if (text > room && room > 0) {
    var full = parseFloat(style.fontSize);
    display.style.fontSize = Math.max(full / 3, Math.floor(full * room / text)) + 'px';
  }
  display.scrollLeft = display.scrollWidth;
}

function render(state) {
  display.textContent = state.display;
  // What a screen reader hears: the number, and the operation that waits ("2 plus").
  if (spoken) { spoken.textContent = state.spoken || state.display; }
  // The key of the operation waiting for its second number looks held down.
  keys.forEach(function (key) {
    var held = key.getAttribute('data-key') === state.pendingKey;
    key.classList.toggle('pending', held);
    if (held) { key.setAttribute('aria-current', 'true'); } else { key.removeAttribute('aria-current'); }
  });
  display.setAttribute('data-error', state.error || '');
  fitDisplay();
  // Undo (or Redo) pressed from the keyboard until there is nothing left:
  // the keyboard goes to the other one, not to the page's start.
  var focused = document.activeElement;
  undo.disabled = !state.canUndo;
  redo.disabled = !state.canRedo;
  if ((focused === undo || focused === redo) && focused.disabled) {
    var other = focused === undo ? redo : undo;
    if (!other.disabled) { other.focus(); }
  }
  undo.title = state.undoTitle;
  undo.setAttribute('aria-label', state.undoTitle);
  redo.title = state.redoTitle;
  redo.setAttribute('aria-label', state.redoTitle);
  while (tape.firstChild) { tape.removeChild(tape.firstChild); }
  state.tape.forEach(function (line) {
    var item = document.createElement('li');
    item.textContent = line;
    tape.appendChild(item);
  });
  tapeEmpty.hidden = state.tape.length > 0;
  showNewestLine();
  dropped.hidden = !state.droppedSteps;
  dropped.textContent = 'The oldest ' + state.droppedSteps + ' step' + (state.droppedSteps === 1 ? ' was' : 's were') +
    ' dropped to save memory: Undo goes back no further.';
}

// The tape shows its newest line, where the calculation just made is.
function showNewestLine() {
  tape.scrollTop = tape.scrollHeight;
}

// What went wrong with a key the server did not take, said under the
// display (the display alone turned red, and the key seemed lost).
function sayFailure(message) {
  failure.textContent = message;
  failure.hidden = !message;
}

// The page's other tabs in this browser, where there is such a channel.
var otherTabs = typeof BroadcastChannel === 'function' ? new BroadcastChannel('rewind-calculator') : null;

function post(path, body) {
  return enqueue(function () { return api('POST', path, body); }).then(function (state) {
    sayFailure('');
    render(state);
    if (otherTabs) { otherTabs.postMessage(state); }
  }, function (error) {
    if (error.status !== 409) {
      // Said under the display, which goes on showing the number it showed.
      sayFailure(error.status === 0 ? 'The server cannot be reached: that key was not taken. Try again in a moment.' : error.message);
    }
  });
}

function keyButton(label) {
  var buttons = keypad.querySelectorAll('.key');
  for (var i = 0; i < buttons.length; i++) {
    if (buttons[i].getAttribute('data-key') === label) { return buttons[i]; }
  }
  return null;
}

function press(label) {
  var button = keyButton(label);
  if (button) {
    button.classList.add('pressed');
    setTimeout(function () { button.classList.remove('pressed'); }, 120);
  }
  post('/api/calculator/keys', { keys: [label] });
}

var aliases = {
  '*': ['x', '×', '*'], 'x': ['x', '×', '*'], 'X': ['x', '×', '*'], '/': ['÷', '/'], ':': ['÷', '/'],
  '-': ['-', '−'], '+': ['+'], '.': ['.'], ',': ['.'], '=': ['='], 'Enter': ['='],
  'Escape': ['AC', 'C'], 'Backspace': ['⌫', 'C'], 'Delete': ['C', 'AC'], '%': ['%'],
  // As in the terminal's calculator (rewind calc): n changes the sign, s is the square root, ^ squares.
  'n': ['±', '+/-'], '~': ['±', '+/-'], 's': ['√', 'sqrt'], '^': ['x²', 'x^2'], '²': ['x²', 'x^2']
};

function labelFor(key) {
  if (/^[0-9]$/.test(key)) { return keyButton(key) ? key : null; }
  var candidates = aliases[key] || [];
  for (var i = 0; i < candidates.length; i++) {
    if (keyButton(candidates[i])) { return candidates[i]; }
  }
  return null;
}

keypad.addEventListener('click', function (event) {
  var button = event.target.closest('.key');
  if (!button) { return; }
  press(button.getAttribute('data-key'));
  // A mouse click leaves no focus behind, so that Enter means "=".
  if (event.detail > 0) { button.blur(); }
});
undo.addEventListener('click', function (event) {
  post('/api/calculator/undo');
  if (event.detail > 0) { undo.blur(); }
});
redo.addEventListener('click', function (event) {
  post('/api/calculator/redo');
  if (event.detail > 0) { redo.blur(); }
});
document.addEventListener('keydown', function (event) {
  var shortcut = undoRedoShortcut(event);
  if (shortcut) {
    event.preventDefault();
    if (shortcut === 'undo' && !undo.disabled) { post('/api/calculator/undo'); }
    if (shortcut === 'redo' && !redo.disabled) { post('/api/calculator/redo'); }
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey || isTextField(event.target)) { return; }
  // Enter or Space on a focused button presses that button, and Enter on
  // a link (the top bar's, "Skip to content") follows it.
  if ((event.key === 'Enter' || event.key === ' ') && event.target.closest('button, a[href], summary')) { return; }
  var label = labelFor(event.key);
  if (!label) { return; }
  event.preventDefault();
  press(label);
});
window.addEventListener('resize', fitDisplay);
fitDisplay();

// Another tab's key, undo or redo: its answer is this calculator's state too.
if (otherTabs) {
  otherTabs.addEventListener('message', function (event) { render(event.data); });
}
document.addEventListener('visibilitychange', function () {
  if (document.visibilityState !== 'visible') { return; }
  enqueue(function () { return api('GET', '/api/calculator'); }).then(render, function () {});
});

showNewestLine();
