import Foundation
import Rewind

/// Where the app state and its undo history live: the seed's `Store`
/// (state, change, reset, updated, destroy) extended with what undo needs.
///
/// Use cases and features talk only to this protocol, so a test passes an
/// ``InMemoryStore`` and the app a persistent one (`TodoStore` module).
///
/// Every method is synchronous and safe to call from any thread or task:
/// implementations serialize access (``InMemoryStore`` with a lock). A change
/// returns only after it is applied and, for a persistent store, committed.
public protocol AppStore: AnyObject, Sendable {
    /// The current state.
    ///
    /// Holding the returned value while the store changes makes the next
    /// change copy the list; prefer ``read(_:)`` for a quick look.
    func state() -> AppState

    /// Runs `body` with the current state without copying it, and returns
    /// what `body` returns. Do not call the store from `body`.
    func read<Result>(_ body: (AppState) throws -> Result) rethrows -> Result

    /// Applies `changes` in order as one undo step and returns the recorded
    /// step (its changes are the inverses). Clears the redo steps.
    ///
    /// - Parameter name: The step's name; `nil` names it with
    ///   ``AppState/stepName(for:)-(_)``.
    /// - Throws: ``TodoError`` when a change is refused, or the store's error
    ///   when it cannot save; state and history are then unchanged.
    @discardableResult
    func change(_ changes: [AppState.Change], named name: String?) throws -> HistoryStep<AppState.Change>

    /// Reverts the newest done step and returns its name, or `nil` when there
    /// is nothing to undo.
    @discardableResult
    func undo() throws -> String?

    /// Repeats the newest undone step and returns its name, or `nil` when
    /// there is nothing to redo.
    @discardableResult
    func redo() throws -> String?

    /// Moves the history to `position` (0 is before the first step).
    ///
    /// - Throws: ``HistoryError/positionOutOfRange(_:valid:)`` and the like.
    func jump(to position: Int) throws

    /// The named steps and the current position.
    func history() -> HistoryOverview

    /// Empties the state and the history.
    func reset() throws

    /// Calls `callback` after every change of state or history, including
    /// changes another process made to a shared persistent store.
    @discardableResult
    func updated(_ callback: @escaping @Sendable () -> Void) -> StoreSubscription

    /// Removes the store's data for good (a persistent store deletes its
    /// files); the store is empty afterwards.
    func destroy() throws
}

extension AppStore {
    /// Applies `changes` as one undo step named after what they do.
    @discardableResult
    public func change(_ changes: AppState.Change...) throws -> HistoryStep<AppState.Change> {
        try change(changes, named: nil)
    }
}

/// A subscription to a store's updates; ``cancel()`` ends it.
public final class StoreSubscription: Sendable {
    private let onCancel: @Sendable () -> Void

    /// Creates a subscription that runs `onCancel` when cancelled.
    public init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Stops the updates.
    public func cancel() {
        onCancel()
    }
}
