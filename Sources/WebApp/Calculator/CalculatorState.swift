import Calculator
import Rewind

/// What the calculator page shows and the API answers (as the `Calculator`
/// schema): the domain's snapshot (display, value, error, canUndo, canRedo,
/// tape), plus the Undo and Redo titles and the keypad.
struct CalculatorState: Sendable {
    /// What the calculator domain shows.
    var snapshot: CalculatorSnapshot
    /// "Undo Press +", or "Undo".
    var undoTitle: String
    /// "Redo Press 7", or "Redo".
    var redoTitle: String
    /// The keypad's labels, row by row.
    var labels: [String]
    /// The key each label presses, in the same order (`nil` for none, which
    /// a valid configuration does not have).
    var keys: [Key?]
    /// How many keys make a row.
    var columnCount: Int
    /// How many of the oldest undo steps were dropped to keep within the
    /// memory budget, and can no longer be undone.
    var droppedSteps: Int
    /// The label of the key whose operation waits for its second number
    /// (`+` in `9 +`), which the page shows as held down; `nil` when none
    /// waits.
    var pendingKey: String?
    /// What a screen reader says of the display: the number, and the
    /// operation that waits for it to be typed, in words ("9 plus"); the
    /// number alone once the second number is there (typed, or made by a
    /// function key such as `x²`).
    var spoken: String

    init(_ session: CalculatorSession) {
        snapshot = session.snapshot
        undoTitle = session.undoTitle
        redoTitle = session.redoTitle
        labels = session.configuration.labels
        keys = labels.map { [factory = session.factory] in try? factory.key(for: $0) }
        columnCount = session.configuration.columnCount
        droppedSteps = session.droppedStepCount
        let pending = session.calculator.pendingOperation.map { Key.operation($0) }
        let waiting = session.calculator.awaitsSecondNumber ? pending : nil
        spoken = session.snapshot.display + (waiting.map { " " + $0.spokenName } ?? "")
        pendingKey = pending.flatMap { [labels, keys] pending in zip(labels, keys).first { $0.1 == pending }?.0 }
    }
}
