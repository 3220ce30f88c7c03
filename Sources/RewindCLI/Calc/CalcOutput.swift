import ArgumentParser
import Calculator
import Foundation
import Todos

/// Where `rewind calc` writes: the display (or a JSON snapshot) on standard
/// output, one-line errors on standard error.
struct CalcOutput {
    /// Whether to print JSON snapshots instead of the display.
    var json: Bool

    /// Prints the display of `session`, or its snapshot as one line of JSON.
    func show(_ session: CalculatorSession) {
        StandardStreams.output((json ? Self.json(session.snapshot) : session.display) + "\n")
    }

    /// Writes `message` as one line on standard error and returns the exit
    /// code to throw.
    func fail(_ message: String) -> ExitCode {
        warn(message)
        return .failure
    }

    /// Writes `message` as one line on standard error, its control
    /// characters (of keys typed, say) shown rather than acting on the terminal.
    func warn(_ message: String) {
        let line = "rewind calc: " + TypedText.visible(message) + "\n"
        StandardStreams.error(line)
    }

    /// The snapshot as one line of JSON, keys in the documented order:
    /// display, value, error, canUndo, canRedo, tape.
    static func json(_ snapshot: CalculatorSnapshot) -> String {
        let fields = [
            ("display", fragment(snapshot.display)),
            ("value", fragment(snapshot.value)),
            ("error", fragment(snapshot.error)),
            ("canUndo", fragment(snapshot.canUndo)),
            ("canRedo", fragment(snapshot.canRedo)),
            ("tape", fragment(snapshot.tape)),
        ]
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// `value` as JSON text (a string, `null`, a boolean or an array).
    private static func fragment(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Strings, booleans and arrays of strings always encode.
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
