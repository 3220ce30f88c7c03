// The Find field (#search) of the to-do pages: the list follows the field
// a moment after the typing stops, and the page's address keeps the words
// (?search=), so that a reload or a bookmark shows the same items; "/"
// goes to the field when no text field has the focus.

import { isTextField } from './keys.js';

var field = document.getElementById('search');
var timer = null;

// The words searched for, '' for none.
export function searchWords() {
  return field ? field.value.trim() : '';
}

// `separator` and the search's parameter, or '' without words.
export function searchQuery(separator) {
  return searchWords() ? separator + 'search=' + encodeURIComponent(searchWords()) : '';
}

// Calls `refresh` after the words change, once the typing stops.
export function setUpSearch(refresh) {
  if (!field) { return; }
  document.addEventListener('keydown', function (event) {
    if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || isTextField(event.target)) { return; }
    if (document.querySelector('dialog[open]')) { return; }
    event.preventDefault();
    field.focus();
    field.select();
  });
  field.addEventListener('input', function () {
    window.clearTimeout(timer);
    timer = window.setTimeout(function () {
      var parameters = new URLSearchParams(window.location.search);
      if (searchWords()) { parameters.set('search', searchWords()); } else { parameters.delete('search'); }
      var query = parameters.toString();
      window.history.replaceState(null, '', window.location.pathname + (query ? '?' + query : '') + window.location.hash);
      refresh();
    }, 200);
  });
}
