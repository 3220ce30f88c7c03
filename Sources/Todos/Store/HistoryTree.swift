import Foundation

/// Every change a history still holds, the abandoned ones included: when a
/// change is made after an undo, the undone steps leave the history the user
/// sees but stay here, as a branch, and a jump can return to them (vim's
/// undo tree).
///
/// ```swift
/// let tree = try await store.historyTree()
/// for step in tree.steps where step.branch == .abandoned { print(step.number, step.name) }
/// try await store.jump(toStep: tree.steps[0].number)
/// ```
public struct HistoryTree: Equatable, Hashable, Sendable, Codable {
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
    public struct Step: Equatable, Hashable, Sendable, Codable {
        /// The step's number, which names it in ``HistoryTree/current`` and
        /// in a jump. In a store that keeps its branches (the SQLite store)
        /// numbers grow with time and are never reused; in a linear tree
        /// (``HistoryTree/init(linear:)``) the number is the step's position,
        /// so a change after an undo gives it to the new step.
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

        /// The same step on `branch`.
        func on(_ branch: Branch) -> Step {
            Step(number: number, parent: parent, name: name, date: date, branch: branch)
        }
    }

    /// Every step, oldest first.
    public private(set) var steps: [Step]
    /// The number of the step the list is at now (0: the start).
    public private(set) var current: Int64

    /// Creates a tree.
    public init(steps: [Step], current: Int64) {
        self.steps = steps
        self.current = current
    }

    /// The newest `limit` steps numbered below `before` (every step's
    /// number without it), oldest first: a page of a long tree. The page
    /// before it ends below its first step's number.
    ///
    /// - Complexity: O(*n*).
    public func steps(before: Int64? = nil, limit: Int) -> ArraySlice<Step> {
        let end = before.flatMap { before in steps.firstIndex { $0.number >= before } } ?? steps.endIndex
        return steps[max(steps.startIndex, end - max(0, limit))..<end]
    }

    /// A new step made after the current one, which it becomes; the undone
    /// steps (when `undoneLeft`: there were some) are abandoned, as a
    /// change after an undo leaves them. A store that keeps the tree in
    /// memory follows its own changes so, without reading them again.
    ///
    /// - Complexity: amortised O(1) when the tree is not shared, and O(*n*)
    ///   when `undoneLeft`.
    public mutating func perform(number: Int64, name: String, date: Date, undoneLeft: Bool) {
        if undoneLeft {
            for index in steps.indices where steps[index].branch == .undone {
                steps[index] = steps[index].on(.abandoned)
            }
        }
        steps.append(Step(number: number, parent: current, name: name, date: date, branch: .done))
        current = number
    }

    /// An undo of the current step, which becomes undone, its parent
    /// current; `false`, with nothing changed, when the tree holds no
    /// current step (the start, or a tree whose steps are not in order).
    ///
    /// - Complexity: O(log *n*).
    @discardableResult
    public mutating func undo() -> Bool {
        guard let index = index(of: current) else { return false }
        steps[index] = steps[index].on(.undone)
        current = steps[index].parent
        return true
    }

    /// A redo of the undone step `number`, made after the current one,
    /// which it becomes; `false`, with nothing changed, when the tree holds
    /// no such step.
    ///
    /// - Complexity: O(log *n*).
    @discardableResult
    public mutating func redo(_ number: Int64) -> Bool {
        guard let index = index(of: number), steps[index].parent == current else { return false }
        steps[index] = steps[index].on(.done)
        current = number
        return true
    }

    /// The index of the step numbered `number` in ``steps``, whose numbers
    /// grow (a store's log); `nil` when there is none.
    private func index(of number: Int64) -> Int? {
        var low = 0
        var high = steps.count
        while low < high {
            let middle = (low + high) / 2
            if steps[middle].number < number { low = middle + 1 } else { high = middle }
        }
        return low < steps.count && steps[low].number == number ? low : nil
    }

    /// How far each step of ``steps`` is to be indented, by index: steps
    /// made one after another share a level, and each branch (a step made
    /// after the same parent as an older one) is one level deeper than its
    /// parent, as vim's undo tree draws it. A step whose parent was pruned
    /// is at level 0.
    ///
    /// ```swift
    /// // A, B, undo, C: B and C were both made after A.
    /// tree.steps.map(\.name)   // ["Add “A”", "Add “B”", "Add “C”"]
    /// tree.levels()            // [0, 0, 1]
    /// ```
    ///
    /// - Complexity: O(*n*) in the number of steps.
    public func levels() -> [Int] {
        var firstChild: [Int64: Int64] = [:]
        for step in steps where firstChild[step.parent] == nil { firstChild[step.parent] = step.number }
        var level: [Int64: Int] = [0: 0]
        return steps.map { step in
            let indent = (level[step.parent] ?? 0) + (firstChild[step.parent] == step.number ? 0 : 1)
            level[step.number] = indent
            return indent
        }
    }
}

extension HistoryTree {
    /// The tree of a history that keeps no abandoned branches: one line of
    /// steps numbered by position (1 is the first step, 0 the start), each
    /// made after the one before it, done up to the overview's position and
    /// undone after it; ``current`` is the position.
    ///
    /// What a store that drops its redo steps on a new change answers
    /// (``InMemoryStore``, the JSON file store): truthful, if less than a
    /// store that keeps the branches can tell.
    ///
    /// - Complexity: O(*n*) in the number of steps.
    public init(linear overview: HistoryOverview) {
        let steps = overview.steps.enumerated().map { index, step in
            let number = Int64(index + 1)
            return Step(
                number: number, parent: number - 1, name: step.name, date: step.date,
                branch: index < overview.position ? .done : .undone
            )
        }
        self.init(steps: steps, current: Int64(overview.position))
    }
}
