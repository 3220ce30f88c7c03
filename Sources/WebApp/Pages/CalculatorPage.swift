import Calculator

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
        Layout(title: "Calculator · Rewind", page: .calculator, csrfToken: csrfToken).render { html in
            html.element("main", [.class("calculator-page")]) { html in
                html.element("h1", [.class("page-title")]) { $0.text("Calculator") }
                html.element("section", [.class("calculator"), .ariaLabel("Calculator")]) { html in
                    // Seen: the number. Heard (calc-spoken): the number and the
                    // operation that waits for the next one ("2 plus").
                    html.element(
                        "output",
                        [.class("calc-display"), .id("calc-display"), Attribute("aria-live", "off"),
                         .data("error", state.snapshot.error ?? "")]
                    ) { $0.text(state.snapshot.display) }
                    html.element("p", [.class("visually-hidden"), .id("calc-spoken"), Attribute("aria-live", "polite")]) {
                        $0.text(state.spoken)
                    }
                    // What went wrong with a key the server did not take (unreachable, refused).
                    html.element("p", [.class("calc-error"), .id("calc-error"), Attribute("role", "alert"), .hidden(true)]) { _ in }
                    UndoRedoBar(
                        canUndo: state.snapshot.canUndo, canRedo: state.snapshot.canRedo,
                        undoTitle: state.undoTitle, redoTitle: state.redoTitle, idPrefix: "calc"
                    ).render(into: &html)
                    html.element("p", [.class("calc-dropped"), .id("calc-dropped"), .hidden(state.droppedSteps == 0)]) {
                        $0.text(Self.droppedNote(state.droppedSteps))
                    }
                    keypad(into: &html)
                }
                html.element("section", [.class("tape"), .ariaLabel("Tape")]) { html in
                    html.element("h2") { $0.text("Tape") }
                    html.element("ol", [.class("tape-list"), .id("calc-tape")]) { html in
                        for line in state.snapshot.tape {
                            html.element("li") { $0.text(line) }
                        }
                    }
                    html.element("p", [.class("tape-empty"), .hidden(!state.snapshot.tape.isEmpty)]) {
                        $0.text("Completed calculations appear here.")
                    }
                }
                html.element("p", [.class("keyboard-help")]) { html in
                    html.text(
                        "Keyboard: digits, . or , for the decimal point, + - * / (or x), %, n for ±, s for √, ^ for x², "
                            + "Enter or = for equals, Escape clears all, Delete clears the number, Backspace deletes a digit, "
                    )
                    html.element("kbd") { $0.text("Ctrl+Z") }
                    html.text(" undoes, ")
                    html.element("kbd") { $0.text("Ctrl+Shift+Z") }
                    html.text(" or ")
                    html.element("kbd") { $0.text("Ctrl+Y") }
                    html.text(" redoes.")
                }
            }
        }
    }

    /// What the page says when the oldest undo steps were dropped; the
    /// script writes the same sentence.
    static func droppedNote(_ count: Int) -> String {
        "The oldest \(count) step\(count == 1 ? " was" : "s were") dropped to save memory: Undo goes back no further."
    }

    private func keypad(into html: inout HTMLWriter) {
        html.element(
            "div",
            [.class("keypad"), .data("columns", String(state.columnCount)), Attribute("role", "group"),
             .ariaLabel("Keypad")]
        ) { html in
            for (label, key) in zip(state.labels, state.keys) {
                html.element("button", attributes: Self.keyAttributes(label: label, key: key, pending: label == state.pendingKey)) {
                    $0.text(key?.typographicFace ?? label)
                }
            }
        }
    }

    /// A key's button: its label in `data-key` (what the script sends), its
    /// look, and what it does in words (`title`), also its accessible name:
    /// the words alone for a key drawn with a sign (`×`, `⌫`, `√`), which a
    /// screen reader says wrongly or not at all, and after the letters for
    /// a key drawn with letters (“AC, all clear”), so that the name still
    /// holds what is seen. The key of the operation that waits for its
    /// second number is `pending`, drawn as held down and `aria-current`.
    static func keyAttributes(label: String, key: Key?, pending: Bool = false) -> [Attribute] {
        var attributes: [Attribute] = [
            .type("button"), .class("key " + keyClass(label) + (pending ? " pending" : "")), .data("key", label),
        ]
        if pending { attributes.append(Attribute("aria-current", "true")) }
        guard let key, case let name = key.spokenName, name != label else { return attributes }
        attributes.append(.title(name.prefix(1).uppercased() + name.dropFirst()))
        let face = key.typographicFace ?? label
        attributes.append(.ariaLabel(face.allSatisfy(\.isLetter) ? face + ", " + name : name))
        return attributes
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
/// undo or redo, titled with the step they would undo or redo; when given
/// its name, a button also shows it after its label ("Undo: Add “Milk”"),
/// cut to the button's width on a wide window and whole on a phone, where
/// no tooltip shows.
struct UndoRedoBar {
    var canUndo: Bool
    var canRedo: Bool
    var undoTitle: String
    var redoTitle: String
    /// Prefixes the buttons' ids: `todos-undo`, `calc-undo`.
    var idPrefix: String
    /// The name of the step Undo would take back, shown on its button;
    /// `nil` or empty shows the label alone.
    var undoName: String? = nil
    /// The name of the step Redo would make again, shown the same way.
    var redoName: String? = nil

    func render(into html: inout HTMLWriter) {
        html.element("div", [.class("undo-bar"), .data("region", "undo-bar")]) { html in
            button(
                "undo", "Undo", symbol: "↶ ", title: undoTitle, name: undoName, isEnabled: canUndo,
                shortcuts: "Control+Z Meta+Z", into: &html
            )
            button(
                "redo", "Redo", symbol: "↷ ", title: redoTitle, name: redoName, isEnabled: canRedo,
                shortcuts: "Control+Shift+Z Meta+Shift+Z Control+Y", into: &html
            )
        }
    }

    private func button(
        _ kind: String, _ label: String, symbol: String, title: String, name: String?, isEnabled: Bool,
        shortcuts: String, into html: inout HTMLWriter
    ) {
        html.element(
            "button",
            [.type("button"), .class(kind), .id("\(idPrefix)-\(kind)"), .title(title), .ariaLabel(title),
             .disabled(!isEnabled), Attribute("aria-keyshortcuts", shortcuts)]
        ) { html in
            html.element("span", [Attribute("aria-hidden", "true")]) { $0.text(symbol) }
            html.text(label)
            if isEnabled, let name, !name.isEmpty {
                html.element("span", [.class("undo-name")]) { html in
                    html.text(": ")
                    html.stepName(name)
                }
            }
        }
    }
}
