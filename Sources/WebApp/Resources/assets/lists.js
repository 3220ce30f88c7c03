// The lists page of team mode (/lists): make a list, rename, share and
// stop sharing the lists the account owns, and delete one after the
// ModalCard's confirmation.

import { api, enqueue, showError } from './api.js';
import { fetchHTML, makeRefresher, swapRegions } from './regions.js';
import { setUpModals, watchDialog } from './modal-card.js';

var refresh = makeRefresher(function () {
  return fetchHTML('/lists/fragment').then(function (html) {
    swapRegions(html);
    document.querySelectorAll('dialog[data-modal-card]').forEach(watchDialog);
  });
});

function change(method, path, body) {
  return enqueue(function () { return api(method, path, body); })
    .then(function (data) { refresh(); return data; }, function (error) { showError(error); refresh(); throw error; });
}

function listID(element) {
  var row = element.closest('[data-list]');
  return row ? row.getAttribute('data-list') : null;
}

document.addEventListener('submit', function (event) {
  var form = event.target;
  var input;
  if (form.classList.contains('new-list')) {
    event.preventDefault();
    input = form.querySelector('input[name="name"]');
    var name = input.value.trim();
    if (!name) { return; }
    change('POST', '/api/lists', { name: name }).then(function (list) {
      input.value = '';
      window.location.assign('/lists/' + list.id);
    }, function () {});
  } else if (form.classList.contains('rename-list')) {
    event.preventDefault();
    input = form.querySelector('input[name="name"]');
    change('PATCH', '/api/lists/' + listID(form), { name: input.value }).catch(function () {});
  } else if (form.classList.contains('share-list')) {
    event.preventDefault();
    input = form.querySelector('input[name="account"]');
    var account = input.value.trim();
    if (!account) { return; }
    change('POST', '/api/lists/' + listID(form) + '/members', { account: account }).catch(function () {});
  }
});

document.addEventListener('click', function (event) {
  var button = event.target.closest('button.unshare');
  if (!button) { return; }
  var account = button.getAttribute('data-account');
  change('DELETE', '/api/lists/' + listID(button) + '/members/' + encodeURIComponent(account)).catch(function () {});
});

setUpModals(function () { refresh(); });

// Coming back to the page (another tab, another window) shows the lists as
// they are now: their counts, and lists shared with the account meanwhile;
// not while something is typed into one of the page's fields, which a
// refresh would clear.
document.addEventListener('visibilitychange', function () {
  if (document.visibilityState !== 'visible') { return; }
  var typed = Array.prototype.some.call(document.querySelectorAll('.lists-page input'), function (input) {
    return input.value !== input.defaultValue;
  });
  if (!typed && !document.querySelector('dialog[open]')) { refresh(); }
});
