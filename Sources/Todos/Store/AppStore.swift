import Foundation
import Rewind

/// Where the app state and its undo history live: state, change, reset,
/// updated and destroy, with what undo needs.
///
/// Use cases and features talk only to this protocol, so a test passes an
/// ``InMemoryStore`` and the app a persistent one (`TodoStore` module).
///
/// Every method is `async` and runs the store's work where the store keeps
/// it (its own executor or queue, never Swift's cooperative pool), one
/// operation at a time. A change returns only after it is applied and, for a
/// persistent store, committed.
///
/// ```swift
/// let store = InMemoryStore(now: { Date() })
/// try await store.change(.add(milk))
/// let titles = try await store.read { state in state.todos.items.map(\.title) }
/// try await store.undo()                       // "Add “Buy milk”"
/// ```
public protocol AppStore: AnyObject, Sendable {
    /// Runs `body` with the current state, without copying it, where the
    /// store works, and returns what `body` returns.
    ///
    /// - Throws: What `body` throws, or the store's error when it cannot read.
    func read<Result: Sendable>(_ body: @escaping @Sendable (AppState) throws -> Result) async throws -> Result

    /// The items with `ids` that exist, in that order. A store that does
    /// not keep the list in memory reads only their rows.
    ///
    /// - Throws: The store's error when it cannot read.
    func items(withIDs ids: [UUID]) async throws -> [TodoItem]

    /// Where those of `ids` that are in the list stand (0 is the top), and
    /// how many items the list holds. A store that does not keep the list
    /// in memory counts rows.
    ///
    /// - Throws: The store's error when it cannot read.
    func positions(of ids: [UUID]) async throws -> ListPositions

    /// The named steps and the current position.
    func history() async throws -> HistoryOverview

    /// Applies `changes` in order as one undo step and returns the recorded
    /// step (its changes are the inverses). Clears the redo steps.
    ///
    /// - Parameter name: The step's name; `nil` names it with
    ///   ``AppState/stepName(for:)-(_)``.
    /// - Throws: ``TodoError`` when a change is refused, or the store's error
    ///   when it cannot save; state and history are then unchanged.
    @discardableResult
    func change(_ changes: [AppState.Change], named name: String?) async throws -> HistoryStep<AppState.Change>

    /// Applies `changes` as ``change(_:named:)`` does and answers, besides
    /// the step, those of the items with `ids` that exist after it, in that
    /// order: what an edit or a toggle answers. A store that reads the
    /// items afterwards in another turn (the default) may answer what a
    /// later change made of them; one that answers them from the step's
    /// own turn does not.
    ///
    /// - Throws: As ``change(_:named:)``.
    func change(
        _ changes: [AppState.Change], named name: String?, answering ids: [UUID]
    ) async throws -> (step: HistoryStep<AppState.Change>, items: [TodoItem])

    /// Reverts the newest done step and returns its name, or `nil` when there
    /// is nothing to undo.
    @discardableResult
    func undo() async throws -> String?

    /// Repeats the newest undone step and returns its name, or `nil` when
    /// there is nothing to redo.
    @discardableResult
    func redo() async throws -> String?

    /// Moves the history to `position` (0 is before the first step).
    ///
    /// - Throws: ``HistoryError/positionOutOfRange(_:valid:)`` and the like.
    func jump(to position: Int) async throws

    /// Every step the history holds, with the branches a change made after
    /// an undo left, and the step the list is at: what an undo-tree panel
    /// shows (vim's `:undolist`, Photoshop's history with "allow non-linear").
    ///
    /// A store that keeps no abandoned branches answers with its linear
    /// history as a tree (``HistoryTree/init(linear:)``): the steps are
    /// numbered by position, and none is ``HistoryTree/Branch/abandoned``.
    func historyTree() async throws -> HistoryTree

    /// Moves the history to the step numbered `number` of ``historyTree()``
    /// (0 is the start), on any branch, as one move.
    ///
    /// - Throws: ``HistoryError/stepNotFound(_:)`` when the tree holds no
    ///   such step; nothing changes then.
    func jump(toStep number: Int64) async throws

    /// Empties the state and the history.
    func reset() async throws

    /// A stream with an element after every change of state or history,
    /// including changes another process made to a shared persistent store.
    /// It ends when the store is destroyed; stop reading (cancel the task)
    /// to unsubscribe.
    func updates() async -> AsyncStream<Void>

    /// Removes the store's data for good (a persistent store deletes its
    /// files); the store is empty afterwards and its update streams end.
    func destroy() async throws

    /// Asks the store's database something trivial, as a load balancer's
    /// health check wants to know: whether the store can read and save
    /// now. A persistent store asks its database (a pool's connection, a
    /// read of its file); one that keeps everything in memory (the
    /// default) has nothing to ask.
    ///
    /// - Throws: The store's error that says what cannot be reached, or why
    ///   the store refuses to work (a damaged file).
    func checkReachable() async throws

    /// Where the state and history stand, named alike by every instance
    /// over the same data and named anew by every change: the `id:` of the
    /// web app's change events, which a page that reconnects sends back.
    /// `nil` (the default) when the store has no such name.
    func updateMark() async throws -> String?
}

extension AppStore {
    /// Applies `changes`, then reads the items with `ids`.
    public func change(
        _ changes: [AppState.Change], named name: String?, answering ids: [UUID]
    ) async throws -> (step: HistoryStep<AppState.Change>, items: [TodoItem]) {
        let step = try await change(changes, named: name)
        return (step, try await items(withIDs: ids))
    }

    /// Nothing to ask: the store keeps its data in memory.
    public func checkReachable() async throws {}

    /// No name: the web app counts the changes itself.
    public func updateMark() async throws -> String? { nil }

    /// The current state (a copy: prefer ``read(_:)`` for a quick look).
    public func state() async throws -> AppState {
        try await read { $0 }
    }

    /// The items with `ids` that exist, in that order, read from the state.
    public func items(withIDs ids: [UUID]) async throws -> [TodoItem] {
        try await read { state in ids.compactMap { state.todos[id: $0] } }
    }

    /// Where those of `ids` that are in the list stand, read from the state.
    public func positions(of ids: [UUID]) async throws -> ListPositions {
        try await read { ListPositions(of: ids, in: $0.todos) }
    }

    /// Applies `changes` as one undo step named after what they do.
    @discardableResult
    public func change(_ changes: AppState.Change...) async throws -> HistoryStep<AppState.Change> {
        try await change(changes, named: nil)
    }
}

/// The update streams of one store: a store keeps one, confined with it,
/// and calls ``notify()`` after every operation.
public struct StoreUpdates: Sendable {
    private var continuations: [AsyncStream<Void>.Continuation] = []

    /// No streams yet.
    public init() {}

    /// A new stream that gets an element at every ``notify()``. Elements
    /// that pile up while nobody reads are kept, so a reader counts every
    /// change.
    public mutating func subscribe() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        continuations.append(continuation)
        return stream
    }

    /// Tells every open stream, and forgets the ones whose reader stopped.
    public mutating func notify() {
        continuations.removeAll { continuation in
            if case .terminated = continuation.yield() { return true }
            return false
        }
    }

    /// Ends every stream.
    public mutating func endAll() {
        for continuation in continuations { continuation.finish() }
        continuations.removeAll()
    }
}

/// Where some items of a list stand, and how many items the list holds:
/// what ``AppStore/positions(of:)`` answers.
public struct ListPositions: Equatable, Sendable {
    /// The positions of the items asked for that are in the list (0 is the top).
    public var positions: [UUID: Int]
    /// How many items the list holds.
    public var count: Int

    /// Positions and count as given.
    public init(positions: [UUID: Int], count: Int) {
        self.positions = positions
        self.count = count
    }

    /// The positions of those of `ids` that are in `list`, and its count.
    public init(of ids: [UUID], in list: TodoList) {
        var positions: [UUID: Int] = [:]
        for id in ids { positions[id] = list.position(of: id) }
        self.init(positions: positions, count: list.count)
    }
}
