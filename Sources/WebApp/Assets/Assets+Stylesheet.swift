extension Assets {
    /// `/assets/app.css`: every page's style, light and dark by
    /// `prefers-color-scheme`, from phone to desktop widths.
    static let stylesheet = #"""
        :root {
          color-scheme: light dark;
          --bg: #f5f5f5;
          --surface: #ffffff;
          --surface-2: #f0f0f0;
          --text: #111111;
          --muted: #5c5c5c;
          --faint: #949494;
          --border: #dedede;
          --accent: #b83f45;
          --accent-text: #ffffff;
          --focus: #cf7d7d;
          --done: #6b6b6b;
          --danger: #c62828;
          --danger-text: #ffffff;
          --overdue: #c62828;
          --ok: #2e7d32;
          --shadow: 0 2px 4px rgba(0, 0, 0, 0.2), 0 25px 50px rgba(0, 0, 0, 0.1);
          --radius: 6px;
          font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
          line-height: 1.4;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #121212;
            --surface: #1e1e1e;
            --surface-2: #2a2a2a;
            --text: #ececec;
            --muted: #b0b0b0;
            --faint: #7d7d7d;
            --border: #3a3a3a;
            --accent: #e06c72;
            --accent-text: #121212;
            --focus: #f0a0a4;
            --done: #9a9a9a;
            --danger: #f26b68;
            --danger-text: #121212;
            --overdue: #ff8a80;
            --ok: #81c784;
            --shadow: 0 2px 4px rgba(0, 0, 0, 0.6), 0 25px 50px rgba(0, 0, 0, 0.4);
          }
        }
        *, *::before, *::after { box-sizing: border-box; }
        html, body { margin: 0; padding: 0; }
        body { background: var(--bg); color: var(--text); min-height: 100vh; }
        button, input, textarea, select { font: inherit; color: inherit; }
        a { color: var(--accent); }
        [hidden] { display: none !important; }
        :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        .visually-hidden {
          position: absolute; width: 1px; height: 1px; overflow: hidden;
          clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap;
        }
        .skip-link { position: absolute; left: -9999px; top: 0; background: var(--surface); padding: 0.5rem 1rem; z-index: 10; }
        .skip-link:focus { left: 0.5rem; top: 0.5rem; }

        /* Site navigation */
        .site-nav { background: var(--surface); border-bottom: 1px solid var(--border); }
        .site-nav ul { list-style: none; margin: 0 auto; padding: 0 1rem; display: flex; gap: 1.25rem; max-width: 960px; }
        .site-nav a { display: inline-block; padding: 0.75rem 0; text-decoration: none; color: var(--muted); border-bottom: 3px solid transparent; }
        .site-nav a[aria-current="page"] { color: var(--text); border-bottom-color: var(--accent); }
        .site-nav li:first-child a { font-weight: 700; color: var(--accent); }
        .content { max-width: 960px; margin: 0 auto; padding: 1rem; }

        /* Buttons shared by the apps */
        .button, .undo-bar button, .history-step, .detail-actions button, .modal-card-button, .toolbar button {
          border: 1px solid var(--border); background: var(--surface); border-radius: var(--radius);
          padding: 0.45rem 0.9rem; cursor: pointer; min-height: 2.5rem;
        }
        button:disabled { cursor: not-allowed; opacity: 0.45; }
        .undo-bar { display: flex; gap: 0.5rem; flex: 1 1 18rem; min-width: 0; }
        .undo-bar button { flex: 1 1 0; min-width: 0; max-width: 20rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .danger, .detail-actions .danger, .modal-card-button.destructive { background: var(--danger); color: var(--danger-text); border-color: var(--danger); }
        .primary, .detail-actions .primary, .modal-card-button.default { background: var(--accent); color: var(--accent-text); border-color: var(--accent); }

        /* Landing page */
        .landing h1 { font-size: 3rem; color: var(--accent); margin: 1.5rem 0 0.5rem; font-weight: 300; }
        .landing .lead { font-size: 1.2rem; color: var(--muted); }
        .app-cards { list-style: none; padding: 0; display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); }
        .app-card a { display: block; padding: 1.25rem; background: var(--surface); border-radius: var(--radius); box-shadow: var(--shadow); color: var(--text); text-decoration: none; height: 100%; }
        .app-card a:hover h2, .app-card a:focus h2 { color: var(--accent); }
        .app-card h2 { margin: 0 0 0.5rem; }
        .app-card p { margin: 0; color: var(--muted); }
        .api-note { color: var(--muted); }

        /* To-do page: TodoMVC */
        .todos-layout { display: grid; gap: 1.5rem; grid-template-columns: minmax(0, 1fr); align-items: start; }
        @media (min-width: 900px) { .todos-layout { grid-template-columns: minmax(0, 1fr) 16rem; } }
        .todoapp { background: var(--surface); box-shadow: var(--shadow); position: relative; margin-top: 4.5rem; }
        .todoapp h1 {
          position: absolute; top: -4.8rem; width: 100%; margin: 0; text-align: center;
          font-size: 4rem; font-weight: 200; color: var(--accent); text-rendering: optimizeLegibility;
        }
        .todoapp input::placeholder { font-style: italic; color: var(--faint); }
        .new-todo, .edit {
          position: relative; margin: 0; width: 100%; font-size: 1.4rem; line-height: 1.4em;
          border: 0; color: inherit; padding: 0.4rem; background: var(--surface);
        }
        .new-todo { padding: 1rem 1rem 1rem 3.75rem; height: 4rem; border: none; background: var(--surface); box-shadow: inset 0 -2px 1px rgba(0, 0, 0, 0.03); }
        .main { position: relative; z-index: 2; border-top: 1px solid var(--border); }
        .toggle-all { width: 1px; height: 1px; border: none; opacity: 0; position: absolute; right: 100%; bottom: 100%; }
        .toggle-all + label {
          display: flex; align-items: center; justify-content: center; width: 3.75rem; height: 4rem;
          font-size: 0; position: absolute; top: -4rem; left: 0; cursor: pointer;
        }
        .toggle-all + label::before { content: "❯"; display: inline-block; font-size: 1.4rem; color: var(--faint); padding: 0.6rem 1.7rem; transform: rotate(90deg); }
        .toggle-all:checked + label::before { color: var(--text); }
        .toggle-all:focus-visible + label { outline: 3px solid var(--focus); }
        .todo-list { margin: 0; padding: 0; list-style: none; }
        .todo-list li { position: relative; font-size: 1.4rem; border-bottom: 1px solid var(--border); }
        .todo-list li:last-child { border-bottom: none; }
        .todo-list li.editing { border-bottom: none; padding: 0; }
        .todo-list li.editing .edit { display: block; width: calc(100% - 2.6rem); padding: 0.75rem 1rem; margin: 0 0 0 2.6rem; border: 1px solid var(--faint); box-shadow: inset 0 -1px 5px rgba(0, 0, 0, 0.2); }
        .todo-list li.editing .view { display: none; }
        .todo-list li .edit { display: none; }
        .todo-list .view { display: flex; align-items: center; gap: 0.25rem; min-height: 3.6rem; }
        .todo-list li .toggle {
          flex: none; width: 2.5rem; height: 2.5rem; margin: 0 0 0 0.6rem; cursor: pointer;
          appearance: none; -webkit-appearance: none; border: 2px solid var(--border); border-radius: 50%;
          background: var(--surface);
        }
        .todo-list li .toggle:checked { border-color: var(--ok); }
        .todo-list li .toggle:checked::after { content: "✓"; display: block; text-align: center; line-height: 2.1rem; color: var(--ok); font-size: 1.3rem; }
        .todo-list li label {
          flex: 1 1 auto; min-width: 0; overflow-wrap: anywhere; padding: 0.9rem 0.5rem 0.9rem 0.6rem;
          display: block; line-height: 1.2; transition: color 0.3s; font-weight: 400; color: var(--text); cursor: text;
        }
        .todo-list li.completed label { color: var(--done); text-decoration: line-through; }
        .todo-list .due { flex: none; font-size: 0.85rem; color: var(--muted); white-space: nowrap; }
        .todo-list .due.overdue { color: var(--overdue); font-weight: 600; }
        .todo-list .item-details { flex: none; font-size: 0.9rem; text-decoration: none; padding: 0.4rem 0.5rem; border-radius: var(--radius); color: var(--muted); }
        .todo-list .item-details:hover, .todo-list .item-details:focus { color: var(--accent); }
        .todo-list li .destroy {
          flex: none; width: 2.5rem; height: 2.5rem; font-size: 1.8rem; color: var(--faint); background: none; border: 0;
          cursor: pointer; opacity: 0.3; transition: color 0.2s ease-out, opacity 0.2s;
        }
        .todo-list li .destroy:hover, .todo-list li .destroy:focus { color: var(--accent); opacity: 1; }
        .todo-list li .destroy::after { content: "×"; }
        .todo-list li:hover .destroy, .todo-list li:focus-within .destroy { opacity: 1; }
        @media (hover: none) { .todo-list li .destroy { opacity: 0.7; } }
        .footer {
          padding: 0.6rem 1rem; min-height: 2.6rem; text-align: center; border-top: 1px solid var(--border);
          display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.5rem; font-size: 0.95rem; color: var(--muted);
        }
        .todo-count { text-align: left; }
        .filters { margin: 0; padding: 0; list-style: none; display: flex; gap: 0.25rem; justify-content: center; }
        .filters li a { color: inherit; padding: 0.2rem 0.45rem; text-decoration: none; border: 1px solid transparent; border-radius: 3px; }
        .filters li a:hover { border-color: var(--border); }
        .filters li a.selected { border-color: var(--accent); }
        .clear-completed { border: 0; background: none; color: inherit; cursor: pointer; padding: 0.2rem; }
        .clear-completed:hover { text-decoration: underline; }
        .todo-toolbar { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; justify-content: space-between; margin-top: 1rem; }
        .toolbar { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
        .toolbar label { display: inline-flex; align-items: center; gap: 0.35rem; color: var(--muted); }
        .todo-error { color: var(--danger); min-height: 1.4em; margin: 0.5rem 0 0; }
        .keyboard-help { color: var(--muted); font-size: 0.9rem; }
        kbd { border: 1px solid var(--border); border-bottom-width: 2px; border-radius: 4px; padding: 0 0.3rem; background: var(--surface-2); font-size: 0.85em; }

        /* History panel */
        .history-panel { background: var(--surface); border-radius: var(--radius); box-shadow: var(--shadow); padding: 0.75rem; }
        .history-panel h2 { font-size: 1.1rem; margin: 0 0 0.5rem; }
        .history-list { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.25rem; max-height: 60vh; overflow: auto; }
        .history-step { width: 100%; text-align: left; display: flex; justify-content: space-between; gap: 0.5rem; min-height: 2.25rem; }
        .history-more { color: var(--muted); font-size: 0.85rem; padding: 0.2rem 0.5rem; }
        .history-step time { color: var(--muted); font-size: 0.8rem; white-space: nowrap; }
        .history-step.undone { color: var(--done); font-style: italic; }
        .history-step.abandoned { color: var(--done); border-style: dashed; }
        .history-step { flex-wrap: wrap; }
        .history-step .history-name { flex: 1 1 8rem; min-width: 0; overflow-wrap: break-word; }
        .history-branch { font-size: 0.75rem; border: 1px solid currentColor; border-radius: 3px; padding: 0 0.25rem; align-self: center; white-space: nowrap; }
        .history-list li[data-level] { border-left: 2px solid var(--border); }
        .history-list li[data-level="1"] { margin-left: 0.75rem; }
        .history-list li[data-level="2"] { margin-left: 1.5rem; }
        .history-list li[data-level="3"] { margin-left: 2.25rem; }
        .history-list li[data-level="4"] { margin-left: 3rem; }
        .history-list li[data-level="5"] { margin-left: 3.75rem; }
        .history-list li[data-level="6"] { margin-left: 4.5rem; }
        .history-list li[data-level] .history-step { border-top-left-radius: 0; border-bottom-left-radius: 0; }
        .history-step.current, .history-step[aria-current="step"] { border-color: var(--accent); box-shadow: inset 3px 0 0 var(--accent); font-weight: 600; }

        /* Detail view */
        .detail { background: var(--surface); border-radius: var(--radius); box-shadow: var(--shadow); padding: 1rem 1.25rem; }
        .detail h1 { margin-top: 0; overflow-wrap: anywhere; }
        .detail-form { display: grid; gap: 1rem; }
        .detail-form fieldset { border: 1px solid var(--border); border-radius: var(--radius); padding: 0.75rem; display: grid; gap: 0.6rem; min-width: 0; }
        .detail-form legend { padding: 0 0.3rem; font-weight: 600; }
        .field { display: grid; gap: 0.25rem; }
        .field > span { font-size: 0.9rem; color: var(--muted); }
        .field input, .field textarea, .field select {
          width: 100%; padding: 0.5rem; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface-2); min-height: 2.5rem;
        }
        .field textarea { min-height: 6rem; resize: vertical; }
        .detail-form fieldset.choice-row { display: flex; flex-wrap: wrap; gap: 0.75rem; border: 0; padding: 0; margin: 0; }
        .choice-row label { display: inline-flex; gap: 0.3rem; align-items: center; }
        .grid-2 { display: grid; gap: 0.6rem; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); }
        .steps-list { margin: 0; padding-left: 1.5rem; display: grid; gap: 0.4rem; }
        .steps-list li { display: flex; gap: 0.4rem; }
        .steps-list input { flex: 1; }
        .detail-actions { display: flex; flex-wrap: wrap; gap: 0.5rem; justify-content: space-between; }
        .detail-summary { color: var(--muted); }
        .detail-summary .overdue { color: var(--overdue); font-weight: 600; }
        .form-status { min-height: 1.4em; color: var(--muted); }
        .form-status.error { color: var(--danger); }
        .back-link { display: inline-block; margin-bottom: 0.75rem; }

        /* ModalCard */
        dialog.modal-card {
          border: none; border-radius: 20px; padding: 0; background: var(--surface); color: var(--text);
          box-shadow: var(--shadow); width: min(26rem, calc(100vw - 2rem));
        }
        dialog.modal-card::backdrop { background: rgba(0, 0, 0, 0.45); }
        .modal-card-body { padding: 1.25rem; display: grid; gap: 0.75rem; text-align: center; }
        .modal-card-title { margin: 0; font-size: 1.15rem; }
        .modal-card-message { margin: 0; color: var(--muted); overflow-wrap: anywhere; }
        .modal-card-actions { display: flex; gap: 0.75rem; justify-content: center; flex-wrap: wrap; padding-top: 0.5rem; }
        .modal-card-actions button { min-width: 7rem; }

        /* Calculator */
        .calculator-page { display: grid; gap: 1.25rem; grid-template-columns: minmax(0, 1fr); justify-items: center; }
        @media (min-width: 760px) { .calculator-page { grid-template-columns: minmax(0, 24rem) minmax(0, 1fr); justify-items: stretch; align-items: start; } .calculator-page .page-title, .calculator-page .keyboard-help { grid-column: 1 / -1; } }
        .calculator { background: var(--surface); border-radius: 16px; box-shadow: var(--shadow); padding: 1rem; display: grid; gap: 0.75rem; width: min(24rem, 100%); }
        .calc-display {
          display: block; min-height: 4.5rem; padding: 0.75rem 1rem; font-size: 2.6rem; text-align: right; font-variant-numeric: tabular-nums;
          background: var(--surface-2); border-radius: var(--radius); overflow-x: auto; white-space: nowrap;
        }
        .calc-display[data-error]:not([data-error=""]) { color: var(--danger); font-size: 1.6rem; }
        .keypad { display: grid; gap: 0.5rem; grid-template-columns: repeat(4, 1fr); }
        \#(keypadColumnRules)
        .key { min-height: 3.5rem; font-size: 1.4rem; border-radius: 10px; border: 1px solid var(--border); background: var(--surface-2); cursor: pointer; }
        .key:active, .key.pressed { filter: brightness(0.85); }
        .key-operator { background: var(--surface); color: var(--accent); font-weight: 600; }
        .key-equals { background: var(--accent); color: var(--accent-text); border-color: var(--accent); font-weight: 700; }
        .key-clear { color: var(--danger); }
        .tape { background: var(--surface); border-radius: var(--radius); box-shadow: var(--shadow); padding: 0.75rem 1rem; width: 100%; }
        .tape h2 { margin: 0 0 0.5rem; font-size: 1.1rem; }
        .tape-list { margin: 0; padding-left: 1.75rem; font-variant-numeric: tabular-nums; max-height: 50vh; overflow: auto; }
        .tape-list li { padding: 0.15rem 0; overflow-wrap: anywhere; }
        .tape-empty { color: var(--muted); margin: 0; }
        .calc-dropped { color: var(--muted); font-size: 0.9rem; margin: 0.5rem 0 0; }

        @media (max-width: 520px) {
          .content { padding: 0.5rem; }
          .todoapp h1 { font-size: 3rem; top: -4rem; }
          .todoapp { margin-top: 3.75rem; }
          .new-todo { font-size: 1.15rem; padding-left: 3.25rem; }
          .todo-list li { font-size: 1.15rem; }
          /* The due date takes a line of its own under the title, so that a long date never squeezes the title. */
          .todo-list .view { flex-wrap: wrap; }
          .todo-list li label { flex-basis: 8rem; }
          .todo-list .due { order: 1; flex-basis: 100%; padding: 0 0 0.7rem 4.4rem; margin-top: -0.6rem; }
          .footer { justify-content: center; }
        }
        @media (prefers-reduced-motion: reduce) { * { transition: none !important; } }
        """#

    /// `.keypad[data-columns="n"]` rules for 1 to 12 columns (a keypad with
    /// more gets its columns from the script).
    private static var keypadColumnRules: String {
        (1...12).map { ".keypad[data-columns=\"\($0)\"] { grid-template-columns: repeat(\($0), 1fr); }" }
            .joined(separator: "\n")
    }
}
