import Calculator
import Rewind

/// What `GET /api/calculator` and every calculator action answer: the
/// domain's snapshot (display, value, error, canUndo, canRedo, tape), plus
/// the Undo and Redo titles and the keypad.
struct CalculatorState: Encodable, Sendable {
    /// What the calculator domain shows.
    var snapshot: CalculatorSnapshot
    /// "Undo Press +", or "Undo".
    var undoTitle: String
    /// "Redo Press 7", or "Redo".
    var redoTitle: String
    /// The keypad's labels, row by row.
    var labels: [String]
    /// How many keys make a row.
    var columnCount: Int
    /// How many of the oldest undo steps were dropped to keep within the
    /// memory budget, and can no longer be undone.
    var droppedSteps: Int

    init(_ session: CalculatorSession) {
        snapshot = session.snapshot
        undoTitle = session.undoTitle
        redoTitle = session.redoTitle
        labels = session.configuration.labels
        columnCount = session.configuration.columnCount
        droppedSteps = session.droppedStepCount
    }

    private enum CodingKeys: String, CodingKey {
        case undoTitle, redoTitle, labels, columnCount, droppedSteps
    }

    /// The snapshot's fields and ours, in one object.
    func encode(to encoder: any Encoder) throws {
        try snapshot.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(undoTitle, forKey: .undoTitle)
        try container.encode(redoTitle, forKey: .redoTitle)
        try container.encode(labels, forKey: .labels)
        try container.encode(columnCount, forKey: .columnCount)
        try container.encode(droppedSteps, forKey: .droppedSteps)
    }
}
