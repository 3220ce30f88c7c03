import Foundation

/// Moves an item to another position in the list. Answers the item as it
/// stands there.
public struct ItemMover: UseCase {
    /// What can be asked.
    public enum Request: Equatable, Sendable {
        /// Moves the item with this id so that it ends up at a position.
        case move(UUID, to: Int)
    }

    /// What is answered: the item moved.
    public typealias Response = TodoItem

    private let store: any AppStore

    /// Creates the use case over `store`.
    public init(store: any AppStore) {
        self.store = store
    }

    /// Moves the item and returns it.
    public func request(to request: Request) async throws(TodoFailure) -> TodoItem {
        switch request {
        case .move(let id, let position):
            _ = try await store.perform([.move(id, to: position)])
            // Another client may have deleted it in the meantime.
            guard let item = try await store.items([id]).first else { throw .notFound([id]) }
            return item
        }
    }
}
