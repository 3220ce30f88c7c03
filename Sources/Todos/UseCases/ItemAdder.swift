import Foundation

/// Adds items: a made item at the end or at a position, or a new item made
/// from a draft with an id and date from the injected sources. Answers the
/// item added.
public struct ItemAdder: UseCase {
    /// What can be asked.
    public enum Request: Equatable, Sendable {
        /// Appends an item.
        case add(TodoItem)
        /// Inserts an item so that it ends up at a position.
        case insert(TodoItem, at: Int)
        /// Makes an active item from a draft and appends it, or inserts it at a position.
        case create(TodoItem.Draft, at: Int?)
    }

    /// What is answered: the item added.
    public typealias Response = TodoItem

    private let store: any AppStore
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID

    /// Creates the use case over `store`, with the clock and id source that new items take.
    public init(store: any AppStore, now: @escaping @Sendable () -> Date, makeID: @escaping @Sendable () -> UUID) {
        self.store = store
        self.now = now
        self.makeID = makeID
    }

    /// Adds the item `request` names or makes, and returns it.
    public func request(to request: Request) async throws(TodoFailure) -> TodoItem {
        let item: TodoItem
        let position: Int?
        switch request {
        case .add(let added): (item, position) = (added, nil)
        case .insert(let inserted, let at): (item, position) = (inserted, at)
        case .create(let draft, let at):
            do {
                item = try TodoItem(draft, id: makeID(), created: now())
            } catch {
                throw .invalid(error)
            }
            position = at
        }
        _ = try await store.perform([position.map { .insert(item, at: $0) } ?? .add(item)])
        return item
    }
}
