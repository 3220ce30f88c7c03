import Foundation
import Rewind

/// What a user interface shows of a store's undo history: the named steps,
/// the current position, and the state of the Undo and Redo buttons.
public struct HistoryOverview: Equatable, Hashable, Sendable {
    /// One step as a history panel lists it.
    public struct Step: Equatable, Hashable, Sendable, Codable {
        /// What the step did ("Delete “Buy milk”").
        public let name: String
        /// When the step was performed.
        public let date: Date

        /// Creates a step entry.
        public init(name: String, date: Date) {
            self.name = name
            self.date = date
        }
    }

    /// Every step, oldest first: the first ``position`` are done, the rest undone.
    public let steps: [Step]
    /// How many steps are done; 0 is the state before the first step.
    public let position: Int

    /// Creates an overview.
    public init(steps: [Step], position: Int) {
        self.steps = steps
        self.position = position
    }

    /// Creates the overview of `history`.
    ///
    /// - Complexity: O(*n*) in the number of steps.
    public init<Model>(_ history: History<Model>) {
        self.init(steps: history.steps.map { Step(name: $0.name, date: $0.date) }, position: history.position)
    }

    /// Whether there is a step to undo.
    public var canUndo: Bool { position > 0 }
    /// Whether there is a step to redo.
    public var canRedo: Bool { position < steps.count }
    /// The name of the step undo would revert.
    public var undoActionName: String? { canUndo ? steps[position - 1].name : nil }
    /// The name of the step redo would repeat.
    public var redoActionName: String? { canRedo ? steps[position].name : nil }
    /// "Undo Delete “Buy milk”", or "Undo" when there is nothing to name.
    public var undoTitle: String { Self.title("Undo", undoActionName) }
    /// "Redo Delete “Buy milk”", or "Redo" when there is nothing to name.
    public var redoTitle: String { Self.title("Redo", redoActionName) }

    private static func title(_ verb: String, _ name: String?) -> String {
        guard let name, !name.isEmpty else { return verb }
        return "\(verb) \(name)"
    }
}
