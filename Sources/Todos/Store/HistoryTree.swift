import Foundation

/// Every change a history still holds, the abandoned ones included: when a
/// change is made after an undo, the undone steps leave the history the user
/// sees but stay here, as a branch, and a jump can return to them (vim's
/// undo tree).
///
/// ```swift
/// let tree = store.historyTree()
/// for step in tree.steps where step.branch == .abandoned { print(step.number, step.name) }
/// try store.jump(toStep: tree.steps[0].number)
/// ```
public struct HistoryTree: Equatable, Hashable, Sendable {
    /// Where a step stands relative to where the list is now.
    public enum Branch: String, Equatable, Hashable, Sendable, Codable {
        /// Done: on the way from the start to where the list is now.
        case done
        /// Undone, and next on the way forward: redo brings it back.
        case undone
        /// Off the way: a branch left by a change made after an undo.
        case abandoned
    }

    /// One change of the history.
    public struct Step: Equatable, Hashable, Sendable {
        /// The step's number, which names it in ``HistoryTree/current`` and
        /// in a jump; numbers grow with time and are never reused.
        public let number: Int64
        /// The number of the step it was made after (0: the start).
        public let parent: Int64
        /// What the step did.
        public let name: String
        /// When it was made.
        public let date: Date
        /// Where it stands now.
        public let branch: Branch

        /// Creates a step.
        public init(number: Int64, parent: Int64, name: String, date: Date, branch: Branch) {
            self.number = number
            self.parent = parent
            self.name = name
            self.date = date
            self.branch = branch
        }
    }

    /// Every step, oldest first.
    public let steps: [Step]
    /// The number of the step the list is at now (0: the start).
    public let current: Int64

    /// Creates a tree.
    public init(steps: [Step], current: Int64) {
        self.steps = steps
        self.current = current
    }
}
