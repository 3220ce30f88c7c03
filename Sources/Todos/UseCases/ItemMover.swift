import Foundation

/// Moves an item to another position in the list.
public struct ItemMover: UseCase {
    /// What can be asked.
    public enum Request: Equatable, Sendable {
        /// Moves the item with this id so that it ends up at a position.
        case move(UUID, to: Int)
    }

    /// What is answered.
    public enum Response: Equatable, Sendable {
        /// The item now stands at this position.
        case moved(TodoItem, to: Int)
        /// Nothing was moved.
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
        switch request {
        case .move(let id, let position):
            switch store.perform([.move(id, to: position)]) {
            case .success:
                if let item = store.items([id]).first { respond(.moved(item, to: position)) }
            case .failure(let failure):
                respond(.failed(failure))
            }
        }
    }
}
