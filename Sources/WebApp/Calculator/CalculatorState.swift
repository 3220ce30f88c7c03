import Calculator
import Rewind

/// What `GET /api/calculator` and every calculator action answer: the
/// domain's snapshot, the Undo and Redo titles, and the keypad.
struct CalculatorState: Encodable, Sendable {
    /// The text of the display.
    var display: String
    /// The displayed number at full precision, or `nil` in the error state.
    var value: String?
    /// The message of the error state, or `nil`.
    var error: String?
    /// Whether Undo is available.
    var canUndo: Bool
    /// Whether Redo is available.
    var canRedo: Bool
    /// "Undo Press +", or "Undo".
    var undoTitle: String
    /// "Redo Press 7", or "Redo".
    var redoTitle: String
    /// The completed calculations, oldest first.
    var tape: [String]
    /// The keypad's labels, row by row.
    var labels: [String]
    /// How many keys make a row.
    var columnCount: Int

    init(_ session: CalculatorSession) {
        let snapshot = session.snapshot
        display = snapshot.display
        value = snapshot.value
        error = snapshot.error
        canUndo = snapshot.canUndo
        canRedo = snapshot.canRedo
        undoTitle = session.undoTitle
        redoTitle = session.redoTitle
        tape = snapshot.tape
        labels = session.configuration.labels
        columnCount = session.configuration.columnCount
    }

    private enum CodingKeys: String, CodingKey {
        case display, value, error, canUndo, canRedo, undoTitle, redoTitle, tape, labels, columnCount
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(display, forKey: .display)
        try container.encode(value, forKey: .value)
        try container.encode(error, forKey: .error)
        try container.encode(canUndo, forKey: .canUndo)
        try container.encode(canRedo, forKey: .canRedo)
        try container.encode(undoTitle, forKey: .undoTitle)
        try container.encode(redoTitle, forKey: .redoTitle)
        try container.encode(tape, forKey: .tape)
        try container.encode(labels, forKey: .labels)
        try container.encode(columnCount, forKey: .columnCount)
    }
}
