// Moving rows (the to-do page and a shared list's page): a row's ⠿ handle
// (button.move) is dragged with a mouse, a pen or a finger, or moves the
// row one up or down with the arrow keys while it has the focus. The row
// moves at once (Escape during a drag puts it back); the page's
// `move(id, body)` sends where it went, by the row it now follows
// (`{ after: id }`) or, at the top, the row it now precedes
// (`{ before: id }`), so that a filtered or searched list moves among the
// rows shown. The live region #move-status says where it went. Rows shown
// past the first rows of a long list (li.after-gap and those after it:
// items added or moved on the page) move among themselves, and the first
// rows among themselves: a move across the gap would take a row past every
// row not shown.

var status = document.getElementById('move-status');
var dragged = null;

// Whether a row is being dragged (the page keeps its list until the drop).
export function isDragging() { return dragged !== null; }

function rows(list) {
  return Array.prototype.filter.call(list.children, function (li) {
    return li.matches('li[data-id]') && !li.hidden;
  });
}

// The rows `li` moves among, in the list's order: those on its side of the gap.
function group(li) {
  var all = rows(li.parentElement);
  var gap = all.findIndex(function (row) { return row.classList.contains('after-gap'); });
  if (gap < 0) { return all; }
  return all.indexOf(li) < gap ? all.slice(0, gap) : all.slice(gap);
}

// `members` in their order in the list now.
function inOrder(list, members) {
  return rows(list).filter(function (row) { return members.indexOf(row) >= 0; });
}

function title(li) {
  var label = li.querySelector('.view label');
  return label ? label.textContent : '';
}

// Where `li` stands among `shown`, as a move request names it; `null`
// when it is the only row.
function placement(li, shown) {
  var index = shown.indexOf(li);
  if (index > 0) { return { after: shown[index - 1].getAttribute('data-id') }; }
  if (index + 1 < shown.length) { return { before: shown[index + 1].getAttribute('data-id') }; }
  return null;
}

function handleOf(target) {
  return target && target.closest ? target.closest('.todo-list li[data-id] .move') : null;
}

export function setUpMoving(move, refresh) {
  // Sends the move of `li` unless it is back where it started; whether it did.
  function finish(li, start, members) {
    var shown = inOrder(li.parentElement, members);
    var index = shown.indexOf(li);
    var body = index === start ? null : placement(li, shown);
    if (!body) { return false; }
    if (status) { status.textContent = '“' + title(li) + '” moved to ' + (index + 1) + ' of ' + shown.length + '.'; }
    move(li.getAttribute('data-id'), body);
    return true;
  }

  document.addEventListener('keydown', function (event) {
    // Escape during a drag puts the row back where it was.
    if (dragged && event.key === 'Escape') {
      event.preventDefault();
      var back = dragged;
      dragged = null;
      back.li.classList.remove('dragging');
      back.li.parentElement.insertBefore(back.li, back.home);
      refresh();
      return;
    }
    var handle = handleOf(event.target);
    if (!handle || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') { return; }
    event.preventDefault();
    var li = handle.closest('li');
    var shown = group(li);
    var start = shown.indexOf(li);
    var other = shown[event.key === 'ArrowUp' ? start - 1 : start + 1];
    if (!other) { return; }
    if (event.key === 'ArrowUp') { other.before(li); } else { other.after(li); }
    handle.focus();
    finish(li, start, shown);
  });

  document.addEventListener('pointerdown', function (event) {
    var handle = handleOf(event.target);
    if (!handle || event.button !== 0 || dragged) { return; }
    event.preventDefault();
    var li = handle.closest('li');
    handle.focus();
    handle.setPointerCapture(event.pointerId);
    var members = group(li);
    dragged = { li: li, pointer: event.pointerId, start: members.indexOf(li), home: li.nextElementSibling, members: members };
    li.classList.add('dragging');
  });

  document.addEventListener('pointermove', function (event) {
    if (!dragged || event.pointerId !== dragged.pointer) { return; }
    var li = dragged.li;
    // Near the window's top or bottom edge, the page scrolls, for a long list.
    if (event.clientY < 40) { window.scrollBy(0, -20); } else if (event.clientY > window.innerHeight - 40) { window.scrollBy(0, 20); }
    var others = inOrder(li.parentElement, dragged.members).filter(function (row) { return row !== li; });
    // The row goes before the first other row whose middle is below the pointer.
    var next = others.find(function (row) {
      var box = row.getBoundingClientRect();
      return event.clientY < box.top + box.height / 2;
    });
    if (next) {
      if (li.nextElementSibling !== next) { next.before(li); }
    } else if (others.length && others[others.length - 1].nextElementSibling !== li) {
      others[others.length - 1].after(li);
    }
  });

  function end(event, cancelled) {
    if (!dragged || event.pointerId !== dragged.pointer) { return; }
    var done = dragged;
    dragged = null;
    done.li.classList.remove('dragging');
    // A refresh kept back during the drag comes now, when no move does.
    if (cancelled || !finish(done.li, done.start, done.members)) { refresh(); }
  }
  document.addEventListener('pointerup', function (event) { end(event, false); });
  document.addEventListener('pointercancel', function (event) { end(event, true); });
}
