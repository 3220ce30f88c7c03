import Foundation

/// Removes items: one, several as one step, or every completed one. Answers
/// the items removed, as they were, in list order.
public struct ItemRemover: UseCase {
    /// What can be asked.
    public enum Request: Equatable, Sendable {
        /// Removes this item (found by its id).
        case remove(TodoItem)
        /// Removes the items with these ids as one undo step.
        case removeItems([UUID])
        /// Removes every completed item as one undo step.
        case removeCompleted
    }

    /// What is answered: the items removed.
    public typealias Response = [TodoItem]

    private let store: any AppStore

    /// Creates the use case over `store`.
    public init(store: any AppStore) {
        self.store = store
    }

    /// Removes the items and returns them as they were. Removing a missing
    /// item "fails silently": nothing changes, and the failure says so.
    public func request(to request: Request) async throws(TodoFailure) -> [TodoItem] {
        let change: TodoList.Change
        switch request {
        case .remove(let item): change = .removeItems([item.id])
        case .removeItems(let ids): change = .removeItems(ids)
        case .removeCompleted: change = .removeCompleted
        }
        let step = try await store.perform([.todos(change)])
        // The step's inverse restores the removed items with their positions.
        return step.changes.flatMap { change -> [TodoItem] in
            if case .todos(.restore(let placements)) = change { return placements.map(\.item) }
            return []
        }
    }
}
