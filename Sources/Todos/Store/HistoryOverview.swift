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
    public private(set) var steps: [Step]
    /// How many steps are done; 0 is the state before the first step.
    public private(set) var position: Int

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

    /// A new step after the current position: the undone steps go, as a
    /// change after an undo drops them (a store that keeps the overview in
    /// memory follows its own changes so, without reading them again).
    ///
    /// - Complexity: O(*u*) for *u* undone steps, amortised O(1) when the
    ///   overview is not shared.
    public mutating func perform(_ step: Step) {
        steps.removeSubrange(position...)
        steps.append(step)
        position += 1
    }

    /// An undo (-1), a redo (+1), or a jump by `offset` positions, kept
    /// within the history.
    public mutating func move(by offset: Int) {
        position = min(max(0, position + offset), steps.count)
    }

    /// Keeps the newest `limit` steps (after a change pruned the oldest).
    public mutating func keepNewest(_ limit: Int) {
        let dropped = max(0, steps.count - max(0, limit))
        steps.removeFirst(dropped)
        position = max(0, position - dropped)
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

extension HistoryOverview {
    /// Which steps a page of the history holds: what `GET /api/history`
    /// answers, so that an answer's size follows the page, not the history.
    public enum Page: Equatable, Hashable, Sendable {
        /// Up to `limit` steps around the position: as many undone steps
        /// after it as done steps up to it (one more done for an odd
        /// limit) where the history has them, the rest on the side that
        /// does (the newest `limit` steps when nothing is undone).
        case around(limit: Int)
        /// The newest `limit` steps at positions below `position`.
        case before(position: Int, limit: Int)
        /// The oldest `limit` steps at positions above `position`.
        case after(position: Int, limit: Int)

        /// The page of up to `limit` steps at positions below `before`
        /// and above `after`: with both, the oldest between them; with
        /// neither, those around the position.
        public init(before: Int?, after: Int?, limit: Int) {
            switch (before, after) {
            case (nil, nil): self = .around(limit: limit)
            case (let before?, nil): self = .before(position: before, limit: limit)
            case (nil, let after?): self = .after(position: after, limit: limit)
            case (let before?, let after?):
                // The positions strictly between: none when `before` is not above `after`.
                var between = 0
                if before > after {
                    let (difference, overflow) = before.subtractingReportingOverflow(after)
                    between = overflow ? Int.max : difference - 1
                }
                self = .after(position: after, limit: min(limit, between))
            }
        }

        /// ``init(before:after:limit:)`` for options given by a person or
        /// a client: `limit` 1 to ``largestLimit``, `before` 1 or more,
        /// `after` 0 or more, and, when both are given, `before` above
        /// `after`.
        ///
        /// - Throws: ``PageError`` naming the first option outside that.
        public static func checked(before: Int?, after: Int?, limit: Int) throws(PageError) -> Page {
            guard (1...largestLimit).contains(limit) else { throw .limit(limit) }
            if let before, before < 1 { throw .before(before) }
            if let after, after < 0 { throw .after(after) }
            if let before, let after, before <= after { throw .range(before: before, after: after) }
            return Page(before: before, after: after, limit: limit)
        }

        /// A page option outside what a history can hold; each front end
        /// says so in its own words (a query parameter, a command's option).
        public enum PageError: Error, Equatable, Sendable {
            /// A limit outside 1 to ``Page/largestLimit``.
            case limit(Int)
            /// A `before` below 1: positions start at 1, so none is below it.
            case before(Int)
            /// An `after` below 0, the start.
            case after(Int)
            /// A `before` not above the `after` given with it: no step lies between.
            case range(before: Int, after: Int)
        }

        /// The page of the history that answers show unless asked for
        /// another: the steps around the position.
        public static let standard = Page.around(limit: standardLimit)
        /// The most steps a page holds unless asked for fewer or more.
        public static let standardLimit = 50
        /// The most steps a page may hold.
        public static let largestLimit = 500
    }

    /// The indices into ``steps`` of the steps on `page` (the step at index
    /// *i* is at position *i* + 1), oldest first; empty when the page
    /// holds none (a limit below 1, a position outside the history).
    ///
    /// - Complexity: O(1).
    public func range(of page: Page) -> Range<Int> {
        let count = steps.count
        switch page {
        case .around(let limit):
            let limit = max(0, limit)
            let lower = max(0, min(position - (limit + 1) / 2, count - limit))
            return lower..<min(count, lower + limit)
        case .before(let position, let limit):
            let upper = min(count, max(0, position - 1))
            return max(0, upper - max(0, limit))..<upper
        case .after(let position, let limit):
            let lower = min(count, max(0, position))
            return lower..<min(count, lower + max(0, min(limit, count)))
        }
    }
}
