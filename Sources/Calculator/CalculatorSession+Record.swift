import Rewind

/// What a store keeps of a ``CalculatorSession`` to make it again after a
/// restart: where its history starts and the labels of its steps. Key
/// presses are deterministic, so replaying the labels from the base gives
/// back every state, and a press adds one label, whatever the length of the
/// history.
///
/// Steps are numbered from the session's first press (1) on, dropped ones
/// included: step `n` leads from state `n - 1` to state `n`.
public struct CalculatorRecord: Equatable, Sendable, Codable {
    /// The calculator after the dropped steps: where the kept history starts.
    public var base: Calculator
    /// How many of the oldest steps were dropped and can no longer be undone.
    public var droppedSteps: Int
    /// The labels of the kept steps (`droppedSteps + 1` on), oldest first:
    /// the done ones, then the undone ones that redo repeats.
    public var steps: [String]
    /// How many steps are done, counted from the first: from `droppedSteps`
    /// (everything kept undone) to `droppedSteps + steps.count`.
    public var position: Int

    /// A record of `steps` from `base`, `position` of them done.
    public init(base: Calculator = Calculator(), droppedSteps: Int = 0, steps: [String] = [], position: Int = 0) {
        self.base = base
        self.droppedSteps = droppedSteps
        self.steps = steps
        self.position = position
    }
}

/// Why a ``CalculatorRecord`` does not make a session again.
public enum CalculatorRecordError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The position is outside the kept steps.
    case positionOutside(position: Int, first: Int, last: Int)
    /// A step's label is no key this version knows.
    case unknownLabel(step: Int, label: String)
    /// A step changes nothing when replayed (the calculator behaved
    /// differently when it was recorded).
    case stepChangesNothing(step: Int, label: String)

    /// One line, for the log.
    public var description: String {
        switch self {
        case .positionOutside(let position, let first, let last):
            "the position \(position) is outside the kept steps \(first)…\(last)"
        case .unknownLabel(let step, let label):
            "step \(step) presses “\(label)”, which is no key"
        case .stepChangesNothing(let step, let label):
            "step \(step) (“\(label)”) changes nothing when pressed again"
        }
    }
}

extension CalculatorSession {
    /// Makes a session again from what a store kept of it: the history of
    /// its key presses from `record`'s base, at its position, ready to undo
    /// and redo as before. Macros are not kept.
    ///
    /// The steps are replayed with every key `factory` knows, not only the
    /// keypad's: a step recorded on another keypad still replays.
    ///
    /// - Complexity: O(*n*) in the kept steps.
    /// - Throws: ``CalculatorRecordError`` when the record does not replay.
    public init(
        configuration: ButtonConfiguration,
        factory: CommandFactory = .standard,
        undoLimit: Int? = nil,
        restoring record: CalculatorRecord
    ) throws(CalculatorRecordError) {
        self.init(configuration: configuration, factory: factory, undoLimit: undoLimit)
        let last = record.droppedSteps + record.steps.count
        guard record.droppedSteps >= 0, (record.droppedSteps...last).contains(record.position) else {
            throw .positionOutside(position: record.position, first: record.droppedSteps, last: last)
        }
        history = ValueHistory(record.base, limit: undoLimit, droppedCount: record.droppedSteps)
        var calculator = record.base
        for (offset, label) in record.steps.enumerated() {
            let step = record.droppedSteps + offset + 1
            guard let command = try? factory.command(for: label) else { throw .unknownLabel(step: step, label: label) }
            calculator = command.execute(with: calculator)
            guard history.add(calculator, named: "Press \(command.label)") else {
                throw .stepChangesNothing(step: step, label: label)
            }
        }
        for _ in record.position..<last { history.undo() }
    }

    /// How many steps are done, counted from the first press, dropped ones
    /// included: what ``CalculatorRecord/position`` keeps.
    public var position: Int {
        droppedStepCount + history.currentIndex
    }

    /// The calculator before the oldest step that can still be undone: what
    /// ``CalculatorRecord/base`` keeps.
    public var base: Calculator {
        history.oldestValue
    }

    /// The labels of the kept steps, oldest first (done, then undone), for a
    /// session of key presses: the name of each step without its "Press ".
    public var stepLabels: [String] {
        history.stepNames.map { name in
            name.hasPrefix("Press ") ? String(name.dropFirst("Press ".count)) : name
        }
    }

    /// What a store keeps of the session now.
    public var record: CalculatorRecord {
        CalculatorRecord(base: base, droppedSteps: droppedStepCount, steps: stepLabels, position: position)
    }
}
