import Foundation

/// Changes items: replaces an item by a new version (what an edit form
/// saves), alters fields, completes and reopens items. Every alteration is stamped
/// with the injected clock. Answers the changed items.
public struct ItemUpdater: UseCase {
    /// What can be asked.
    public enum Request: Equatable, Sendable {
        /// Replaces the stored item with this version (same id).
        case update(TodoItem)
        /// Alters fields of the item with this id.
        case alter(UUID, [TodoItem.Change])
        /// Completes the items with these ids as one undo step.
        case complete([UUID])
        /// Reopens the items with these ids as one undo step.
        case reopen([UUID])
        /// Completes every item (TodoMVC's toggle-all when some are active).
        case completeAll
        /// Reopens every item (toggle-all when all are completed).
        case reopenAll
    }

    /// What is answered: the items changed, in their new versions.
    public typealias Response = [TodoItem]

    private let store: any AppStore
    private let now: @Sendable () -> Date

    /// Creates the use case over `store`, stamping changes with `now`.
    public init(store: any AppStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// Changes the items and returns their new versions. An update of a
    /// missing item changes nothing, and the failure says so.
    public func request(to request: Request) async throws(TodoFailure) -> [TodoItem] {
        let date = now()
        let changes: [AppState.Change]
        switch request {
        case .update(let item): changes = [.todos(.replace([item]))]
        case .alter(let id, let alterations): changes = [.update(id, alterations, at: date)]
        case .complete(let ids): changes = ids.map { .update($0, [.complete], at: date) }
        case .reopen(let ids): changes = ids.map { .update($0, [.reopen], at: date) }
        case .completeAll: changes = [.todos(.completeAll(at: date))]
        case .reopenAll: changes = [.todos(.reopenAll(at: date))]
        }
        let step = try await store.perform(changes)
        var seen = Set<UUID>()
        let ids = step.changes.reversed().flatMap { change -> [UUID] in
            switch change {
            case .todos(.update(let id, _, _)): [id]
            case .todos(.replace(let items)): items.map(\.id)
            default: []
            }
        }
        return try await store.items(ids.filter { seen.insert($0).inserted })
    }
}
