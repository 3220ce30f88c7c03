// The footer of the to-do page and of a shared list's page: the filters
// (#/, #/active, #/completed and #/overdue, TodoMVC's routes, so that the
// Back button goes back to the filter before) and "Clear completed".

// The filter the address names: `all` unless its hash names another.
export function filter() {
  var hash = window.location.hash;
  if (hash === '#/active') { return 'active'; }
  if (hash === '#/completed') { return 'completed'; }
  if (hash === '#/overdue') { return 'overdue'; }
  return 'all';
}

// Refreshes the list when the filter changes; "Clear completed" hides the
// completed rows at once and calls `clear`, which sends it.
export function setUpFilters(refresh, clear) {
  window.addEventListener('hashchange', function () { refresh(); });
  document.addEventListener('click', function (event) {
    if (!event.target.classList.contains('clear-completed')) { return; }
    document.querySelectorAll('.todo-list li.completed').forEach(function (done) { done.hidden = true; });
    clear();
  });
}
