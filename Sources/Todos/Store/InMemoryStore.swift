import Foundation
import Rewind

/// A store that keeps state and undo history in memory: the store for tests
/// and `--in-memory` runs.
///
/// ```swift
/// let store = InMemoryStore(now: { clock.now })
/// try await store.change(.add(milk))
/// try await store.history().undoTitle     // "Undo Add “Buy milk”"
/// try await store.undo()
/// ```
///
/// It is an actor on an executor of its own (``StoreExecutor``): every
/// operation runs alone, and a long one (restoring thousands of items) holds
/// none of the threads of Swift's cooperative pool.
public actor InMemoryStore: AppStore {
    private let executor = StoreExecutor(label: "rewind.store.memory")
    private let core: StoreCore
    private var updateStreams = StoreUpdates()

    /// The executor the store's work runs on.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Creates a store holding `state` and no history.
    ///
    /// - Parameters:
    ///   - limit: The most undo steps to keep; `nil` keeps all.
    ///   - now: The clock that dates steps; dates are rounded to milliseconds.
    public init(_ state: AppState = AppState(), limit: Int? = nil, now: @escaping @Sendable () -> Date) {
        core = StoreCore(state, limit: limit, now: now)
    }

    /// Restores a saved store: `state` is the state after `steps[..<position]`.
    ///
    /// - Throws: ``HistoryError/invalidRestoredPosition(_:stepCount:)``.
    public init(
        _ state: AppState, steps: [HistoryStep<AppState.Change>], position: Int,
        limit: Int? = nil, now: @escaping @Sendable () -> Date
    ) throws {
        core = try StoreCore(state, steps: steps, position: position, limit: limit, now: now)
    }

    /// Runs `body` with the current state, without copying it.
    public func read<Result: Sendable>(_ body: @escaping @Sendable (AppState) throws -> Result) throws -> Result {
        try core.read(body)
    }

    /// The named steps and the current position.
    ///
    /// - Complexity: O(*n*) in the number of steps.
    public func history() -> HistoryOverview {
        core.history()
    }

    /// Every step with its changes, oldest first, and the position.
    public func steps() -> (steps: [HistoryStep<AppState.Change>], position: Int) {
        core.steps()
    }

    /// Applies `changes` as one undo step; see ``AppStore/change(_:named:)``.
    @discardableResult
    public func change(_ changes: [AppState.Change], named name: String?) throws -> HistoryStep<AppState.Change> {
        try notifying { try core.change(changes, named: name) }
    }

    /// Applies `changes` as one undo step and answers those of the items
    /// with `ids` that exist after it, in the same turn of the actor.
    public func change(
        _ changes: [AppState.Change], named name: String?, answering ids: [UUID]
    ) throws -> (step: HistoryStep<AppState.Change>, items: [TodoItem]) {
        let step = try change(changes, named: name)
        return (step, core.read { state in ids.compactMap { state.todos[id: $0] } })
    }

    /// Reverts the newest done step and returns its name.
    @discardableResult
    public func undo() throws -> String? {
        try notifying { try core.undo() }
    }

    /// Repeats the newest undone step and returns its name.
    @discardableResult
    public func redo() throws -> String? {
        try notifying { try core.redo() }
    }

    /// Moves the history to `position`.
    public func jump(to position: Int) throws {
        try notifying { try core.jump(to: position) }
    }

    /// The history as a tree without abandoned branches: the store drops
    /// the redo steps a new change replaces (``HistoryTree/init(linear:)``).
    ///
    /// - Complexity: O(*n*) in the number of steps.
    public func historyTree() -> HistoryTree {
        core.historyTree()
    }

    /// Moves the history to the step numbered `number` of ``historyTree()``,
    /// which is its position.
    ///
    /// - Throws: ``HistoryError/stepNotFound(_:)`` when there is no such step.
    public func jump(toStep number: Int64) throws {
        try notifying { try core.jump(toStep: number) }
    }

    /// Empties the state and the history.
    public func reset() throws {
        try notifying { try core.reset() }
    }

    /// Empties the store and ends every update stream.
    public func destroy() throws {
        try reset()
        updateStreams.endAll()
    }

    /// A stream with an element after every operation of this store.
    public func updates() -> AsyncStream<Void> {
        updateStreams.subscribe()
    }

    private func notifying<Result>(_ body: () throws -> Result) throws -> Result {
        let result = try body()
        updateStreams.notify()
        return result
    }
}
