import Foundation

/// Adds items: a made item at the end or at a position, or a new item made
/// from a draft with an id and date from the injected sources.
public struct ItemAdder: UseCase {
    /// What can be asked.
    public enum Request: Equatable, Sendable {
        /// Appends an item.
        case add(TodoItem)
        /// Inserts an item so that it ends up at a position.
        case insert(TodoItem, at: Int)
        /// Makes an unfinished item from a draft and appends it, or inserts it at a position.
        case create(TodoItem.Draft, at: Int?)
    }

    /// What is answered.
    public enum Response: Equatable, Sendable {
        /// The item was added.
        case added(TodoItem)
        /// Nothing was added.
        case failed(TodoFailure)
    }

    private let store: any AppStore
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID
    private let respond: Responder<Response>

    /// Creates the use case over `store`, with the clock and id source that new items take.
    public init(
        store: any AppStore, now: @escaping @Sendable () -> Date, makeID: @escaping @Sendable () -> UUID,
        responder: @escaping Responder<Response>
    ) {
        self.store = store
        self.now = now
        self.makeID = makeID
        respond = responder
    }

    /// Handles `request`.
    public func request(to request: Request) {
        switch request {
        case .add(let item): add(item, at: nil)
        case .insert(let item, let position): add(item, at: position)
        case .create(let draft, let position):
            do {
                add(try TodoItem(draft, id: makeID(), created: now()), at: position)
            } catch {
                respond(.failed(.invalid(error)))
            }
        }
    }

    private func add(_ item: TodoItem, at position: Int?) {
        let change: AppState.Change = position.map { .insert(item, at: $0) } ?? .add(item)
        switch store.perform([change]) {
        case .success: respond(.added(item))
        case .failure(let failure): respond(.failed(failure))
        }
    }
}
