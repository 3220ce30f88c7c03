import Foundation
import Todos

/// Where `rewind todo` writes and how: results on standard output, styled
/// only when it is a terminal and `NO_COLOR` is not set; messages and
/// progress on standard error.
struct TodoTerminal: Sendable {
    /// A text style for a terminal (ANSI SGR codes).
    enum Style: String, Sendable {
        case bold = "1"
        case dim = "2"
        case red = "31"
        case green = "32"
        case yellow = "33"
    }

    /// Whether standard output gets colours and styles.
    let usesColour: Bool

    /// The terminal of this process: colour when standard output is a
    /// terminal (or `CLICOLOR_FORCE` is set) and `NO_COLOR` is not set.
    static func standardOutput(environment: [String: String] = ProcessInfo.processInfo.environment) -> TodoTerminal {
        func isSet(_ name: String) -> Bool { environment[name].map { !$0.isEmpty && $0 != "0" } ?? false }
        if environment["NO_COLOR"].map({ !$0.isEmpty }) ?? false { return TodoTerminal(usesColour: false) }
        if isSet("CLICOLOR_FORCE") { return TodoTerminal(usesColour: true) }
        return TodoTerminal(usesColour: isatty(STDOUT_FILENO) == 1 && environment["TERM"] != "dumb")
    }

    /// `text` in `style`, or as it is without colour.
    func styled(_ text: String, _ style: Style) -> String {
        usesColour && !text.isEmpty ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Writes `text` and a line break on standard output in one write.
    static func print(_ text: String) {
        StandardStreams.output(text + "\n")
    }

    /// Writes `lines` on standard output in one write.
    static func print(lines: [String]) {
        guard !lines.isEmpty else { return }
        print(lines.joined(separator: "\n"))
    }

    /// Writes `message` as one line on standard error: `rewind todo: message`
    /// (`rewind users: message` for `command` "users"), its control
    /// characters made visible (``TypedText/visible(_:keepingLineBreaks:)``).
    static func warn(_ message: String, command: String = "todo") {
        note("rewind \(command): " + TypedText.visible(message))
    }

    /// Writes `message` as one line on standard error, as it is.
    static func note(_ message: String) {
        let line = message.replacingOccurrences(of: "\n", with: " ") + "\n"
        StandardStreams.error(line)
    }
}
