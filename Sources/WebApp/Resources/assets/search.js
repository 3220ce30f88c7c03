// The Find field (#search) of the to-do pages: the list follows the field
// a moment after the typing stops, and the page's address keeps the words
// (?search=), so that a reload or a bookmark shows the same items; "/"
// goes to the field when no text field has the focus.

import { showError } from './api.js';
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
      // More words than a search takes: said here, and neither the list
      // nor the address changes (a reload of it would be refused).
      var most = Number(field.getAttribute('data-most-words'));
      var words = differentWords(searchWords());
      if (most && words > most) {
        showError('A search takes at most ' + most + ' different words; this one has ' + words + '.');
        return;
      }
      var parameters = new URLSearchParams(window.location.search);
      if (searchWords()) { parameters.set('search', searchWords()); } else { parameters.delete('search'); }
      var query = parameters.toString();
      window.history.replaceState(null, '', window.location.pathname + (query ? '?' + query : '') + window.location.hash);
      refresh();
    }, 200);
  });
}

// How many different words `text` has, without regard to case.
function differentWords(text) {
  var seen = {};
  text.toLowerCase().split(/\s+/).forEach(function (word) { if (word) { seen[word] = true; } });
  return Object.keys(seen).length;
}
