/// An undo history of whole values: every step keeps a snapshot.
///
/// Simple and just as good as a ``History`` of changes for small values such
/// as a calculator: adding a value records it, ``previous()`` and ``next()``
/// move back and forth, and adding after stepping back discards the values
/// ahead.
///
/// ```swift
/// var history = ValueHistory(0)
/// history.add(1, named: "Type 1")
/// history.add(12, named: "Type 2")
/// history.previous()        // current == 1
/// history.add(13)           // 12 is gone: hasNext == false
/// ```
///
/// For large values prefer ``History``: a snapshot per step costs the size
/// of the value on every change that touches most of it.
public struct ValueHistory<Value: Equatable> {
    private var values: [Value]
    private var names: [String]
    private var index = 0

    /// How many values were removed from the front so far.
    private var removedCount = 0

    /// The index in `values` of the oldest value within the ``limit``:
    /// the values before it are out of reach, and wait to be removed in a
    /// batch (so that a step at the limit costs O(1) amortized).
    private var oldest = 0

    /// How many of the oldest values were dropped so far, by the ``limit``
    /// or by ``dropOldest(_:)``: the steps to them can no longer be undone.
    public var droppedCount: Int {
        removedCount + oldest
    }

    /// The most undo steps kept, or `nil` for no limit. When a new value
    /// would exceed it, the oldest values are dropped.
    public let limit: Int?

    /// Creates a history whose only value is `initialValue`.
    ///
    /// - Parameters:
    ///   - initialValue: The value before the first step.
    ///   - limit: The most undo steps to keep; `nil` (the default) keeps
    ///     every step. A limit below 1 is taken as 1.
    ///   - droppedCount: How many steps came before `initialValue` and can
    ///     no longer be undone (0, the default, for a new history): a
    ///     history made again from a store, whose oldest steps were dropped.
    public init(_ initialValue: Value, limit: Int? = nil, droppedCount: Int = 0) {
        values = [initialValue]
        names = [""]
        self.limit = limit.map { max(1, $0) }
        removedCount = max(0, droppedCount)
    }

    /// The value at the current position.
    public var current: Value {
        values[index]
    }

    /// The value before the oldest step that can still be undone: where
    /// undoing every step leads, and what a store keeps in place of the
    /// dropped steps.
    public var oldestValue: Value {
        values[oldest]
    }

    /// Whether there is a value before the current one.
    public var hasPrevious: Bool {
        index > oldest
    }

    /// Whether there is a value after the current one, left by stepping back.
    public var hasNext: Bool {
        index < values.count - 1
    }

    /// How many values the history holds, the current one included.
    public var count: Int {
        values.count - oldest
    }

    /// The position of the current value among all values (0 is the oldest).
    public var currentIndex: Int {
        index - oldest
    }

    /// The names given to the recorded values, oldest first: the name at
    /// index `i` is that of the step from value `i` to value `i + 1`, as a
    /// history panel lists them.
    public var stepNames: [String] {
        Array(names.dropFirst(oldest + 1))
    }

    /// Moves to the value at `index` (0 is the oldest kept value), as a
    /// history panel does when a step is clicked. An index outside
    /// `0..<count` is clamped to the nearest end.
    public mutating func jump(to index: Int) {
        let oldest = oldest
        self.index = oldest + min(max(index, 0), values.count - 1 - oldest)
    }

    /// Moves to the previous value, if there is one.
    public mutating func previous() {
        guard hasPrevious else { return }
        index -= 1
    }

    /// Moves to the next value, if there is one.
    public mutating func next() {
        guard hasNext else { return }
        index += 1
    }

    /// Records `newValue` as the current value.
    ///
    /// A value equal to the current one is ignored, so that undo never steps
    /// to an identical value. Values ahead of the current position (left by
    /// stepping back) are discarded.
    ///
    /// - Parameters:
    ///   - newValue: The value after the step.
    ///   - name: What changed, for undo titles ("Type 5").
    /// - Returns: Whether the value was recorded.
    ///
    /// - Complexity: O(1) amortized, also at the ``limit`` and after
    ///   undoing: the oldest values are dropped in batches, not shifted out
    ///   one by one.
    @discardableResult
    public mutating func add(_ newValue: Value, named name: String = "") -> Bool {
        guard newValue != current else { return false }
        values.removeSubrange((index + 1)...)
        names.removeSubrange((index + 1)...)
        values.append(newValue)
        names.append(name)
        index += 1
        guard let limit else { return true }
        // Values beyond the limit are out of reach at once and removed in a
        // batch once they are as many as the limit allows.
        oldest = max(oldest, values.count - 1 - limit)
        if oldest > limit { dropOldest(0) }
        return true
    }

    /// Drops the `count` oldest values (never the current one), as a memory
    /// budget does; the steps to them can no longer be undone.
    ///
    /// - Returns: How many values were dropped.
    /// - Complexity: O(*n*) in the values kept.
    @discardableResult
    public mutating func dropOldest(_ count: Int) -> Int {
        let waiting = oldest
        let dropped = min(max(count, 0), index - waiting) + waiting
        guard dropped > 0 else { return 0 }
        values.removeFirst(dropped)
        names.removeFirst(dropped)
        index -= dropped
        removedCount += dropped
        oldest = 0
        return dropped - waiting
    }
}

extension ValueHistory: UndoController {
    /// Whether ``previous()`` has a value to move to.
    public var canUndo: Bool { hasPrevious }

    /// Whether ``next()`` has a value to move to.
    public var canRedo: Bool { hasNext }

    /// The name given to the current value when it was added.
    public var undoActionName: String? {
        hasPrevious ? names[index] : nil
    }

    /// The name given to the next value when it was added.
    public var redoActionName: String? {
        hasNext ? names[index + 1] : nil
    }

    /// Moves to the previous value and returns the name of the step undone.
    @discardableResult
    public mutating func undo() -> String? {
        guard hasPrevious else { return nil }
        let name = names[index]
        previous()
        return name
    }

    /// Moves to the next value and returns the name of the step redone.
    @discardableResult
    public mutating func redo() -> String? {
        guard hasNext else { return nil }
        next()
        return names[index]
    }
}

extension ValueHistory: Equatable {
    /// Two histories are equal when they hold the same values within reach,
    /// with the same names, at the same position, the same number of
    /// dropped values and the same limit (however many values out of reach
    /// each still holds in memory).
    public static func == (a: ValueHistory, b: ValueHistory) -> Bool {
        a.limit == b.limit && a.droppedCount == b.droppedCount && a.currentIndex == b.currentIndex
            && a.values[a.oldest...] == b.values[b.oldest...] && a.names[(a.oldest + 1)...] == b.names[(b.oldest + 1)...]
    }
}
extension ValueHistory: Sendable where Value: Sendable {}
