import Calculator
import Foundation

/// `rewind calc` on a terminal: shows the keypad and the display, and
/// presses keys as they are typed.
///
/// Keys: digits, `.`, `+ - * / x`, `%`, `s` for √, `^` for x², `n` for ±,
/// Enter or `=` for =, Escape for AC, `c` for C, Backspace for ⌫; `u` or
/// Ctrl-Z undo, `r` or Ctrl-Y redo; `q`, Ctrl-D or Ctrl-C quit.
struct CalcInteractive {
    var session: CalculatorSession
    /// Standard input in raw mode, restored when ``run()`` returns.
    let terminal: RawTerminal
    private var message = ""

    init(session: CalculatorSession, terminal: RawTerminal) {
        self.session = session
        self.terminal = terminal
    }

    /// What a typed key does.
    enum Action: Equatable {
        /// Presses the button with this label.
        case press(String)
        /// Undoes the last step.
        case undo
        /// Redoes the last undone step.
        case redo
        /// Leaves the interactive mode.
        case quit
        /// A key with no meaning here.
        case ignore
    }

    /// Reads and presses keys until `q`, Ctrl-D, Ctrl-C or the end of input,
    /// then restores the terminal and prints the display.
    mutating func run() {
        // The alternate screen keeps the shell's scrollback clean; the last
        // display is printed on the normal screen when leaving.
        write("\u{1B}[?1049h\u{1B}[?25l")
        defer {
            write("\u{1B}[?25h\u{1B}[?1049l")
            terminal.restore()
            StandardStreams.output(session.display + "\n")
        }
        render()
        while let bytes = terminal.readKey() {
            for action in Self.actions(for: bytes) {
                guard perform(action) else { return }
            }
            render()
        }
    }

    /// The actions of the bytes one read returned: Escape is AC, also when
    /// keys typed fast (or pasted) come in the same read; the sequences a
    /// terminal sends for keys such as the arrows (Escape `[` … or Escape
    /// `O` and one byte) are ignored.
    static func actions(for bytes: [UInt8]) -> [Action] {
        var actions: [Action] = []
        var plain: [UInt8] = []
        func typed() {
            actions += String(decoding: plain, as: UTF8.self).map(action(for:))
            plain = []
        }
        var index = 0
        while index < bytes.count {
            guard bytes[index] == 0x1B else {
                plain.append(bytes[index])
                index += 1
                continue
            }
            typed()
            let next = index + 1 < bytes.count ? bytes[index + 1] : nil
            if next == UInt8(ascii: "[") {
                // A control sequence: up to and with its final byte.
                index += 2
                while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
                index += 1
            } else if next == UInt8(ascii: "O") {
                index += 3
            } else {
                actions.append(.press("AC"))
                index += 1
            }
        }
        typed()
        return actions
    }

    /// The action of one typed character.
    static func action(for character: Character) -> Action {
        switch character {
        case "0" ... "9", ".", "+", "-", "%", "=", "±", "√", "÷", "x", "C":
            .press(String(character))
        case ",": .press(".")
        case "*", "×", "X": .press("x")
        case "/": .press("÷")
        case "\r", "\n", "\r\n": .press("=")
        case "s": .press("√")
        case "^", "²": .press("x²")
        case "n", "~": .press("±")
        case "c": .press("C")
        case "a", "A": .press("AC")
        case "\u{7F}", "\u{08}": .press("⌫")
        case "u", "\u{1A}": .undo
        case "r", "\u{19}": .redo
        case "q", "Q", "\u{04}", "\u{03}": .quit
        default: .ignore
        }
    }

    /// Does `action`; returns `false` to quit.
    private mutating func perform(_ action: Action) -> Bool {
        message = ""
        switch action {
        case .press(let label):
            // A keypad without ⌫ corrects with C.
            let label = label == "⌫" && !session.factory.knows(label) ? "C" : label
            do {
                try session.press(label)
            } catch {
                message = "No \(label) key on this keypad"
            }
        case .undo:
            if session.undo() == nil { message = "Nothing to undo" }
        case .redo:
            if session.redo() == nil { message = "Nothing to redo" }
        case .quit:
            return false
        case .ignore:
            break
        }
        return true
    }

    private func render() {
        write("\u{1B}[H\u{1B}[J" + CalcKeypadView(session: session, message: message).text)
    }

    private func write(_ text: String) {
        StandardStreams.output(text)
    }
}

/// The screen of the interactive mode: display, keypad, undo state, tape.
struct CalcKeypadView {
    let session: CalculatorSession
    let message: String

    var text: String {
        let rows = session.configuration.rows
        let keyWidth = (session.configuration.labels.map(\.count).max() ?? 1) + 2
        let keypadWidth = session.configuration.columnCount * (keyWidth + 3) - 1
        let display = session.display
        let pending = session.calculator.pendingOperation?.symbol ?? " "
        let innerWidth = max(keypadWidth - 2, display.count + 4)
        var lines = [
            "rewind calc",
            "┌" + String(repeating: "─", count: innerWidth) + "┐",
            "│" + pending + String(repeating: " ", count: innerWidth - 2 - display.count) + display + " │",
            "└" + String(repeating: "─", count: innerWidth) + "┘",
        ]
        // Each key drawn with its sign, as on the web page: × for x, − for -.
        let factory = session.factory
        for row in rows {
            let faces = row.map { label in (try? factory.key(for: label))?.typographicFace ?? label }
            lines.append(faces.map { "[" + Self.centered($0, width: keyWidth) + "]" }.joined(separator: " "))
        }
        lines.append("")
        lines.append("u \(session.undoTitle) · r \(session.redoTitle) · q quit")
        // The typed keys of this keypad's keys only, each named as the keypad draws it.
        let typed = [("Enter", "="), ("Esc", "AC"), ("c", "C"), ("Backspace", "⌫"), ("*", "x"), ("/", "÷"), ("s", "√"), ("^", "x²"), ("n", "±")]
        lines.append(
            typed.compactMap { typed, label in
                factory.canonicalLabel(for: label).map { "\(typed) \((try? factory.key(for: $0))?.typographicFace ?? $0)" }
            }.joined(separator: " · "))
        if !message.isEmpty { lines.append(message) }
        let tape = session.tape.suffix(5)
        if !tape.isEmpty {
            lines.append("")
            lines += tape.map { "  " + $0 }
        }
        // Output processing stays on in raw mode: "\n" still starts a new line.
        return lines.joined(separator: "\n") + "\n"
    }

    private static func centered(_ label: String, width: Int) -> String {
        let padding = max(0, width - label.count)
        let left = padding / 2
        return String(repeating: " ", count: left) + label + String(repeating: " ", count: padding - left)
    }
}
