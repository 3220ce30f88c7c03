import Foundation

/// Removes items: one, several as one step, or every completed one.
public struct ItemRemover: UseCase {
    /// What can be asked.
    public enum Request: Equatable, Sendable {
        /// Removes this item (found by its id).
        case remove(TodoItem)
        /// Removes the items with these ids as one undo step.
        case removeItems([UUID])
        /// Removes every completed item as one undo step.
        case clearFinished
    }

    /// What is answered.
    public enum Response: Equatable, Sendable {
        /// These items were removed (as they were, in list order).
        case removed([TodoItem])
        /// Nothing was removed (removing a missing item "fails silently").
        case failed(TodoFailure)
    }

    private let store: any AppStore
    private let respond: Responder<Response>

    /// Creates the use case over `store`.
    public init(store: any AppStore, responder: @escaping Responder<Response>) {
        self.store = store
        respond = responder
    }

    /// Handles `request`.
    public func request(to request: Request) {
        let change: TodoList.Change
        switch request {
        case .remove(let item): change = .removeItems([item.id])
        case .removeItems(let ids): change = .removeItems(ids)
        case .clearFinished: change = .removeFinished
        }
        switch store.perform([.todos(change)]) {
        case .success(let step):
            // The step's inverse restores the removed items with their positions.
            let removed = step.changes.flatMap { change -> [TodoItem] in
                if case .todos(.restore(let placements)) = change { return placements.map(\.item) }
                return []
            }
            respond(.removed(removed))
        case .failure(let failure):
            respond(.failed(failure))
        }
    }
}
