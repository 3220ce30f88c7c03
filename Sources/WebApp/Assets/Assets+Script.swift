extension Assets {
    /// `/assets/app.js`: the progressive enhancement of every page. The
    /// server renders all markup; this script sends the user's actions to
    /// the JSON API one at a time, in order, and swaps in fresh regions of
    /// server-rendered HTML when the state changed (told by `/events`).
    /// It never builds markup from strings: text goes in through
    /// `textContent`, server fragments through `DOMParser`.
    static let script = #"""
        'use strict';
        (function () {
          // ---------------------------------------------------------------
          // Requests: one queue, so that quick successive actions apply in
          // the order they were made, none lost and none doubled.
          // ---------------------------------------------------------------
          var csrfMeta = document.querySelector('meta[name="rewind-csrf"]');
          var csrfToken = csrfMeta ? csrfMeta.getAttribute('content') : '';
          var queue = Promise.resolve();

          function enqueue(task) {
            var run = queue.then(task);
            queue = run.catch(function () {});
            return run;
          }

          function ApiError(message, status) {
            this.message = message;
            this.status = status;
          }

          function send(method, path, body) {
            var headers = { 'Accept': 'application/json', 'X-Rewind-CSRF': csrfToken };
            var init = { method: method, headers: headers, credentials: 'same-origin' };
            if (body !== undefined) {
              headers['Content-Type'] = 'application/json';
              init.body = JSON.stringify(body);
            }
            return fetch(path, init);
          }

          function api(method, path, body) {
            return send(method, path, body).then(function (response) {
              if (response.status !== 403) { return response; }
              // The server may have restarted with a new token: fetch it and retry once.
              return fetch('/api/csrf', { credentials: 'same-origin' })
                .then(function (fresh) { return fresh.ok ? fresh.json() : null; })
                .then(function (data) {
                  if (!data || data.token === csrfToken) { return response; }
                  csrfToken = data.token;
                  return send(method, path, body);
                });
            }).then(function (response) {
              return response.json().catch(function () { return {}; }).then(function (data) {
                if (!response.ok) { throw new ApiError(data.error || response.statusText, response.status); }
                return data;
              });
            });
          }

          function showError(error) {
            var box = document.getElementById('todo-error') || document.getElementById('form-status');
            var message = error && error.message ? error.message : String(error);
            if (!box) { return; }
            box.textContent = message;
            box.classList.add('error');
            clearTimeout(showError.timer);
            showError.timer = setTimeout(function () {
              if (box.textContent === message) { box.textContent = ''; box.classList.remove('error'); }
            }, 6000);
          }

          function isTextField(element) {
            if (!element) { return false; }
            var tag = element.tagName;
            if (tag === 'TEXTAREA' || tag === 'SELECT' || element.isContentEditable) { return true; }
            if (tag !== 'INPUT') { return false; }
            return ['checkbox', 'radio', 'button', 'submit', 'reset'].indexOf(element.type) < 0;
          }

          function undoRedoShortcut(event) {
            if (!(event.ctrlKey || event.metaKey) || event.altKey || isTextField(event.target)) { return null; }
            var key = event.key.toLowerCase();
            if (key === 'z') { return event.shiftKey ? 'redo' : 'undo'; }
            if (key === 'y' && event.ctrlKey && !event.shiftKey) { return 'redo'; }
            return null;
          }

          // ---------------------------------------------------------------
          // Regions: server-rendered parts marked data-region, replaced by
          // fresh copies from a fragment URL.
          // ---------------------------------------------------------------
          function swapRegions(html, skip) {
            var fresh = new DOMParser().parseFromString('<body>' + html + '</body>', 'text/html');
            fresh.querySelectorAll('[data-region]').forEach(function (replacement) {
              var name = replacement.getAttribute('data-region');
              var current = document.querySelector('[data-region="' + name + '"]');
              if (!current || (skip && skip(name, current))) { return; }
              if (current.querySelector('dialog[open]')) { return; }
              var focusedID = document.activeElement && current.contains(document.activeElement) ? focusKey(document.activeElement) : null;
              current.replaceWith(document.importNode(replacement, true));
              if (focusedID) { restoreFocus(focusedID); }
            });
          }

          // Keeps the focus on "the same" control across a swap.
          function focusKey(element) {
            if (element.id) { return '#' + element.id; }
            var li = element.closest('li[data-id]');
            var step = element.getAttribute('data-step');
            if (step !== null) { return '.history-step[data-step="' + step + '"]'; }
            if (li && element.classList.length) {
              return 'li[data-id="' + li.getAttribute('data-id') + '"] .' + element.classList[0];
            }
            return null;
          }

          function restoreFocus(selector) {
            var element = document.querySelector(selector);
            if (element) { element.focus(); }
          }

          function fetchHTML(path) {
            return fetch(path, { credentials: 'same-origin', headers: { 'Accept': 'text/html' } }).then(function (response) {
              if (!response.ok) {
                return response.json().catch(function () { return {}; }).then(function (data) {
                  throw new ApiError(data.error || response.statusText, response.status);
                });
              }
              return response.text();
            });
          }

          // One refresh at a time; a refresh asked for while one waits in the
          // queue is the same refresh.
          function makeRefresher(load) {
            var waiting = false;
            return function refresh() {
              if (waiting) { return queue; }
              waiting = true;
              return enqueue(function () {
                waiting = false;
                return load();
              }).catch(showError);
            };
          }

          function listenForChanges(refresh) {
            if (!window.EventSource) { return; }
            var source = new EventSource('/events');
            var opened = false;
            source.addEventListener('todos', function () { refresh(); });
            source.addEventListener('open', function () {
              // After a reconnect (a server restart), catch up.
              if (opened) { refresh(); }
              opened = true;
            });
            window.addEventListener('pagehide', function () { source.close(); });
          }

          // ---------------------------------------------------------------
          // ModalCard: open from [data-opens-modal], focus the safe button,
          // Escape or the safe button cancels, the focus returns to the opener.
          // ---------------------------------------------------------------
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
            if (opener && document.contains(opener) && !opener.disabled) {
              opener.focus();
            } else {
              var fallback = document.querySelector('.new-todo') || document.querySelector('.back-link');
              if (fallback) { fallback.focus(); }
            }
          }

          function setUpModals(afterRequest) {
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
                  if (then) { window.location.assign(then); } else { afterRequest(); }
                }, function (error) {
                  button.disabled = false;
                  closeModal(dialog, 'cancel');
                  showError(error);
                });
              }
            });
            document.querySelectorAll('dialog[data-modal-card]').forEach(watchDialog);
          }

          function watchDialog(dialog) {
            if (dialog.getAttribute('data-watched')) { return; }
            dialog.setAttribute('data-watched', 'yes');
            dialog.addEventListener('close', onModalClosed);
          }

          // ---------------------------------------------------------------
          // Undo, redo and the history panel, shared by the to-do pages.
          // ---------------------------------------------------------------
          function setUpHistory(afterChange) {
            function move(kind, body) {
              return enqueue(function () { return api('POST', '/api/history/' + kind, body); })
                .then(function () { afterChange(true); }, function (error) {
                  if (error.status !== 409) { showError(error); }
                });
            }
            document.addEventListener('click', function (event) {
              var button = event.target.closest('button');
              if (!button || button.disabled) { return; }
              if (button.classList.contains('undo') && button.id === 'todos-undo') { move('undo'); }
              else if (button.classList.contains('redo') && button.id === 'todos-redo') { move('redo'); }
              else if (button.classList.contains('history-step')) {
                if (button.getAttribute('aria-current') === 'step') { return; }
                move('jump', { step: Number(button.getAttribute('data-step')) });
              }
            });
            document.addEventListener('keydown', function (event) {
              var shortcut = undoRedoShortcut(event);
              if (!shortcut || document.querySelector('dialog[open]')) { return; }
              event.preventDefault();
              var button = document.getElementById('todos-' + shortcut);
              if (button && !button.disabled) { move(shortcut); }
            });
          }

          // ---------------------------------------------------------------
          // The to-do page (TodoMVC).
          // ---------------------------------------------------------------
          function todoPage() {
            var newTodo = document.querySelector('.new-todo');
            var deferredMain = false;

            function filter() {
              var hash = window.location.hash;
              if (hash === '#/active') { return 'active'; }
              if (hash === '#/completed') { return 'completed'; }
              return 'all';
            }

            function sort() {
              try { return window.localStorage.getItem('rewind.sort') === 'smart' ? 'smart' : 'list'; } catch (e) { return 'list'; }
            }

            var refresh = makeRefresher(function () {
              return fetchHTML('/todos/fragment?filter=' + filter() + '&sort=' + sort()).then(function (html) {
                swapRegions(html, function (name, current) {
                  // Keep the list while an item is being edited; refresh it after.
                  if (name === 'main' && current.querySelector('li.editing')) { deferredMain = true; return true; }
                  return false;
                });
              });
            });

            function change(method, path, body) {
              return enqueue(function () { return api(method, path, body); })
                .then(function () { refresh(); }, function (error) { showError(error); refresh(); });
            }

            function itemID(element) {
              var li = element.closest('li[data-id]');
              return li ? li.getAttribute('data-id') : null;
            }

            newTodo.addEventListener('keydown', function (event) {
              if (event.key !== 'Enter' || event.isComposing) { return; }
              var title = newTodo.value.trim();
              if (!title) { return; }
              newTodo.value = '';
              var body = { title: title };
              change('POST', '/api/todos', body);
            });

            document.addEventListener('change', function (event) {
              var target = event.target;
              if (target.classList.contains('toggle')) {
                var id = itemID(target);
                var li = target.closest('li');
                if (li) { li.classList.toggle('completed', target.checked); }
                if (id) { change('PATCH', '/api/todos/' + id, { completed: target.checked }); }
              } else if (target.id === 'toggle-all') {
                change('POST', '/api/todos/toggle-all', { completed: target.checked });
              } else if (target.id === 'smart-order') {
                try { window.localStorage.setItem('rewind.sort', target.checked ? 'smart' : 'list'); } catch (e) {}
                refresh();
              }
            });

            document.addEventListener('click', function (event) {
              var target = event.target;
              if (target.classList.contains('destroy')) {
                var id = itemID(target);
                var li = target.closest('li');
                if (li) { li.hidden = true; }
                if (id) { change('DELETE', '/api/todos/' + id); }
              } else if (target.classList.contains('clear-completed')) {
                document.querySelectorAll('.todo-list li.completed').forEach(function (li) { li.hidden = true; });
                change('POST', '/api/todos/clear-completed');
              }
            });

            // Editing: double-click a label; Enter or blur saves the trimmed
            // title, an empty one deletes, Escape cancels.
            document.addEventListener('dblclick', function (event) {
              var label = event.target.closest('.todo-list li .view label');
              if (!label) { return; }
              startEditing(label.closest('li'));
            });

            function startEditing(li) {
              var input = li.querySelector('.edit');
              if (!input) { return; }
              document.querySelectorAll('.todo-list li.editing').forEach(function (other) { if (other !== li) { other.classList.remove('editing'); } });
              li.classList.add('editing');
              input.value = li.querySelector('.view label').textContent;
              input.removeAttribute('data-cancelled');
              input.focus();
              input.setSelectionRange(input.value.length, input.value.length);
            }

            function finishEditing(input, save) {
              var li = input.closest('li');
              if (!li || !li.classList.contains('editing')) { return; }
              var label = li.querySelector('.view label');
              var id = li.getAttribute('data-id');
              li.classList.remove('editing');
              if (save) {
                var title = input.value.trim();
                if (!title) {
                  li.hidden = true;
                  change('DELETE', '/api/todos/' + id);
                } else if (title !== label.textContent) {
                  label.textContent = title;
                  change('PATCH', '/api/todos/' + id, { title: title });
                }
              }
              if (deferredMain) { deferredMain = false; refresh(); }
            }

            document.addEventListener('keydown', function (event) {
              var input = event.target;
              if (!input.classList || !input.classList.contains('edit')) { return; }
              if (event.key === 'Enter' && !event.isComposing) {
                event.preventDefault();
                finishEditing(input, true);
              } else if (event.key === 'Escape') {
                event.preventDefault();
                input.setAttribute('data-cancelled', 'yes');
                finishEditing(input, false);
              }
            });

            document.addEventListener('focusout', function (event) {
              var input = event.target;
              if (!input.classList || !input.classList.contains('edit')) { return; }
              var cancelled = input.getAttribute('data-cancelled') === 'yes';
              input.removeAttribute('data-cancelled');
              finishEditing(input, !cancelled);
            });

            window.addEventListener('hashchange', function () { refresh(); });
            setUpHistory(function () { refresh(); });
            setUpModals(function () { refresh(); });
            listenForChanges(refresh);
            if (filter() !== 'all' || sort() !== 'list') { refresh(); }
            newTodo.focus();
          }

          // ---------------------------------------------------------------
          // The detail view of one item.
          // ---------------------------------------------------------------
          function detailPage() {
            var main = document.querySelector('main.detail-page');
            var id = main.getAttribute('data-id');
            var dirty = false;
            // Typing after Save was pressed must survive the refresh that follows it.
            var typedSinceSave = false;
            // "Saved." stays for a few seconds, through the live refreshes the save causes.
            var savedAt = 0;

            function form() { return document.getElementById('detail-form'); }

            function showSaved() {
              var status = document.getElementById('form-status');
              if (status && Date.now() - savedAt < 4000) { status.textContent = 'Saved.'; status.classList.remove('error'); }
            }

            function localValue(iso) {
              var date = new Date(iso);
              if (isNaN(date.getTime())) { return ''; }
              function two(n) { return (n < 10 ? '0' : '') + n; }
              return date.getFullYear() + '-' + two(date.getMonth() + 1) + '-' + two(date.getDate()) +
                'T' + two(date.getHours()) + ':' + two(date.getMinutes());
            }

            function prepare() {
              var current = form();
              if (!current) { return; }
              current.querySelectorAll('input[type="datetime-local"][data-iso]').forEach(function (input) {
                var iso = input.getAttribute('data-iso');
                if (iso) { input.value = localValue(iso); }
              });
              showChoices(current);
              document.querySelectorAll('dialog[data-modal-card]').forEach(watchDialog);
            }

            function showChoices(current) {
              var due = current.querySelector('input[name="dueKind"]:checked');
              current.querySelectorAll('[data-due]').forEach(function (block) {
                block.hidden = !due || block.getAttribute('data-due') !== due.value;
              });
              var location = current.querySelector('input[name="locationKind"]:checked');
              current.querySelectorAll('[data-location]').forEach(function (block) {
                block.hidden = !location || block.getAttribute('data-location') !== location.value;
              });
            }

            var refresh = makeRefresher(function () {
              return fetchHTML('/todos/items/' + id + '/fragment').then(function (html) {
                // Typing after Save wins over the saved form, whenever it happened.
                var force = refresh.force && !typedSinceSave;
                refresh.force = false;
                swapRegions(html, function (name) { return name === 'detail' && dirty && !force; });
                if (force || !dirty) { dirty = false; }
                prepare();
                showSaved();
              }, function (error) {
                if (error.status === 404) {
                  var status = document.getElementById('form-status');
                  if (status) { status.textContent = 'This item was deleted. Undo brings it back.'; }
                  return;
                }
                throw error;
              });
            });

            function isoFrom(input) {
              if (!input || !input.value) { return null; }
              var date = new Date(input.value);
              return isNaN(date.getTime()) ? null : date.toISOString();
            }

            function timeZone() {
              try { return Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { return undefined; }
            }

            function collect(current) {
              var field = function (name) { return current.elements.namedItem(name); };
              var body = {
                title: field('title').value,
                details: field('details').value,
                completed: field('completed').checked
              };
              var dueKind = current.querySelector('input[name="dueKind"]:checked');
              switch (dueKind ? dueKind.value : 'none') {
                case 'none': body.due = null; break;
                case 'date':
                  body.due = { kind: 'date', date: isoFrom(field('dueDate')) };
                  if (!body.due.date) { throw new ApiError('Choose the date and time the item is due.'); }
                  break;
                case 'span':
                  body.due = { kind: 'span', start: isoFrom(field('spanStart')), end: isoFrom(field('spanEnd')) };
                  if (!body.due.start) { throw new ApiError('Choose when the time span starts.'); }
                  break;
                case 'duration':
                  body.due = {
                    kind: 'duration', start: isoFrom(field('durationStart')),
                    amount: parseInt(field('durationAmount').value, 10), unit: field('durationUnit').value
                  };
                  if (!body.due.start) { throw new ApiError('Choose when the duration starts.'); }
                  if (isNaN(body.due.amount)) { throw new ApiError('The duration must be a whole number.'); }
                  break;
                case 'text':
                  body.dueText = field('dueText').value;
                  body.timeZone = timeZone();
                  break;
              }
              var locationKind = current.querySelector('input[name="locationKind"]:checked');
              switch (locationKind ? locationKind.value : 'none') {
                case 'none': body.location = null; break;
                case 'address':
                  body.location = {
                    kind: 'address', street: field('street').value, city: field('city').value,
                    zipCode: field('zipCode').value, country: field('country').value
                  };
                  break;
                case 'coordinate':
                  var latitude = Number(field('latitude').value.replace(',', '.'));
                  var longitude = Number(field('longitude').value.replace(',', '.'));
                  if (field('latitude').value.trim() === '' || isNaN(latitude)) { throw new ApiError('The latitude must be a number between -90 and 90.'); }
                  if (field('longitude').value.trim() === '' || isNaN(longitude)) { throw new ApiError('The longitude must be a number between -180 and 180.'); }
                  body.location = { kind: 'coordinate', latitude: latitude, longitude: longitude };
                  break;
                case 'directions':
                  var steps = field('steps').value.split('\n').map(function (s) { return s.trim(); }).filter(function (s) { return s; });
                  body.location = { kind: 'directions', steps: steps };
                  break;
              }
              return body;
            }

            document.addEventListener('input', function (event) {
              if (event.target.closest('#detail-form')) { dirty = true; typedSinceSave = true; }
            });
            document.addEventListener('change', function (event) {
              var current = event.target.closest('#detail-form');
              if (!current) { return; }
              dirty = true;
              typedSinceSave = true;
              showChoices(current);
            });
            document.addEventListener('submit', function (event) {
              var current = event.target.closest('#detail-form');
              if (!current) { return; }
              event.preventDefault();
              var status = document.getElementById('form-status');
              var body;
              try { body = collect(current); } catch (error) { showError(error); return; }
              typedSinceSave = false;
              enqueue(function () { return api('PATCH', '/api/todos/' + id, body); }).then(function () {
                savedAt = Date.now();
                // Replace the form with the saved item unless the person went on typing.
                dirty = typedSinceSave;
                refresh.force = !typedSinceSave;
                refresh();
              }, function (error) {
                if (status) { status.textContent = error.message; status.classList.add('error'); }
              });
            });

            setUpHistory(function () { typedSinceSave = false; refresh.force = true; refresh(); });
            setUpModals(function () { refresh(); });
            listenForChanges(refresh);
            prepare();
          }

          // ---------------------------------------------------------------
          // The calculator page: keys go to the server, which answers with
          // the calculator's state.
          // ---------------------------------------------------------------
          function calculatorPage() {
            var display = document.getElementById('calc-display');
            var undo = document.getElementById('calc-undo');
            var redo = document.getElementById('calc-redo');
            var tape = document.getElementById('calc-tape');
            var tapeEmpty = document.querySelector('.tape-empty');
            var dropped = document.getElementById('calc-dropped');
            var keypad = document.querySelector('.keypad');
            var columns = Number(keypad.getAttribute('data-columns'));
            if (columns > 12) { keypad.style.gridTemplateColumns = 'repeat(' + columns + ', 1fr)'; }

            function render(state) {
              display.textContent = state.display;
              display.setAttribute('data-error', state.error || '');
              undo.disabled = !state.canUndo;
              redo.disabled = !state.canRedo;
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
              dropped.hidden = !state.droppedSteps;
              dropped.textContent = 'The oldest ' + state.droppedSteps + ' step' + (state.droppedSteps === 1 ? ' was' : 's were') +
                ' dropped to save memory: Undo goes back no further.';
            }

            function post(path, body) {
              return enqueue(function () { return api('POST', path, body); }).then(render, function (error) {
                if (error.status !== 409) { display.setAttribute('data-error', error.message); }
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
              '*': ['x', '×', '*'], 'x': ['x', '×'], 'X': ['x', '×'], '/': ['÷', '/'], ':': ['÷'],
              '-': ['-', '−'], '+': ['+'], '.': ['.'], ',': ['.'], '=': ['='], 'Enter': ['='],
              'Escape': ['AC', 'C'], 'Backspace': ['⌫', 'C'], 'Delete': ['C', 'AC'], '%': ['%']
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
              // Enter or Space on a focused button presses that button.
              if ((event.key === 'Enter' || event.key === ' ') && event.target.closest('button')) { return; }
              var label = labelFor(event.key);
              if (!label) { return; }
              event.preventDefault();
              press(label);
            });
          }

          function start() {
            var page = document.body.getAttribute('data-page');
            if (page === 'todos') { todoPage(); }
            else if (page === 'todo-detail') { detailPage(); }
            else if (page === 'calculator') { calculatorPage(); }
          }

          if (document.readyState === 'loading') {
            document.addEventListener('DOMContentLoaded', start);
          } else {
            start();
          }
        })();
        """#
}
