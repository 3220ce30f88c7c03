/// `/calculator`: the display, Undo and Redo, the keypad built from the
/// button configuration, and the tape. The script sends key presses to the
/// server, where the calculator runs, and shows the answer.
struct CalculatorPage {
    /// The calculator as it is for this browser.
    var state: CalculatorState
    /// The token for the page's script.
    var csrfToken: String

    /// The whole document.
    func render() -> HTML {
        Layout(title: "Calculator · Rewind", page: .calculator, csrfToken: csrfToken).render {
            HTML.element("main", [.class("calculator-page")]) {
                HTML.element("h1", [.class("page-title")]) { "Calculator" }
                HTML.element("section", [.class("calculator"), .ariaLabel("Calculator")]) {
                    HTML.element(
                        "output",
                        [.class("calc-display"), .id("calc-display"), Attribute("aria-live", "polite"),
                         .data("error", state.snapshot.error ?? "")]
                    ) { state.snapshot.display }
                    UndoRedoBar(
                        canUndo: state.snapshot.canUndo, canRedo: state.snapshot.canRedo,
                        undoTitle: state.undoTitle, redoTitle: state.redoTitle, idPrefix: "calc"
                    ).render()
                    HTML.element("p", [.class("calc-dropped"), .id("calc-dropped"), .hidden(state.droppedSteps == 0)]) {
                        Self.droppedNote(state.droppedSteps)
                    }
                    keypad()
                }
                HTML.element("section", [.class("tape"), .ariaLabel("Tape")]) {
                    HTML.element("h2") { "Tape" }
                    HTML.element("ol", [.class("tape-list"), .id("calc-tape")]) {
                        for line in state.snapshot.tape {
                            HTML.element("li") { line }
                        }
                    }
                    HTML.element("p", [.class("tape-empty"), .hidden(!state.snapshot.tape.isEmpty)]) {
                        "Completed calculations appear here."
                    }
                }
                HTML.element("p", [.class("keyboard-help")]) {
                    "Keyboard: digits, + - * / (or x), Enter or = for equals, Escape clears, Backspace deletes a digit, "
                    HTML.element("kbd") { "Ctrl+Z" }
                    " undoes, "
                    HTML.element("kbd") { "Ctrl+Shift+Z" }
                    " redoes."
                }
            }
        }
    }

    /// What the page says when the oldest undo steps were dropped; the
    /// script writes the same sentence.
    static func droppedNote(_ count: Int) -> String {
        "The oldest \(count) step\(count == 1 ? " was" : "s were") dropped to save memory: Undo goes back no further."
    }

    private func keypad() -> HTML {
        HTML.element(
            "div",
            [.class("keypad"), .data("columns", String(state.columnCount)), Attribute("role", "group"),
             .ariaLabel("Keypad")]
        ) {
            for label in state.labels {
                HTML.element(
                    "button",
                    [.type("button"), .class("key " + Self.keyClass(label)), .data("key", label)]
                ) { label }
            }
        }
    }

    /// A class for the key's look: digits, operators, equals, clearing keys.
    static func keyClass(_ label: String) -> String {
        switch label {
        case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", ".": "key-digit"
        case "=": "key-equals"
        case "AC", "C", "⌫": "key-clear"
        default: "key-operator"
        }
    }
}

/// Undo and Redo buttons, always shown, disabled when there is nothing to
/// undo or redo, titled with the step they would undo or redo.
struct UndoRedoBar {
    var canUndo: Bool
    var canRedo: Bool
    var undoTitle: String
    var redoTitle: String
    /// Prefixes the buttons' ids: `todos-undo`, `calc-undo`.
    var idPrefix: String

    func render() -> HTML {
        HTML.element("div", [.class("undo-bar"), .data("region", "undo-bar")]) {
            button("undo", "Undo", symbol: "↶ ", title: undoTitle, isEnabled: canUndo, shortcuts: "Control+Z Meta+Z")
            button(
                "redo", "Redo", symbol: "↷ ", title: redoTitle, isEnabled: canRedo,
                shortcuts: "Control+Shift+Z Meta+Shift+Z Control+Y"
            )
        }
    }

    private func button(
        _ kind: String, _ label: String, symbol: String, title: String, isEnabled: Bool, shortcuts: String
    ) -> HTML {
        HTML.element(
            "button",
            [.type("button"), .class(kind), .id("\(idPrefix)-\(kind)"), .title(title), .ariaLabel(title),
             .disabled(!isEnabled), Attribute("aria-keyshortcuts", shortcuts)]
        ) {
            HTML.element("span", [Attribute("aria-hidden", "true")]) { symbol }
            label
        }
    }
}
