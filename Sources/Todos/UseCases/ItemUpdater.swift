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
        /// Completes those of the items with these ids that are active and
        /// reopens those that are completed, as one undo step, decided on
        /// the items as they are when the store applies the step: two
        /// toggles sent at once bring an item back to where it was.
        case toggle([UUID])
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
        case .toggle(let ids): changes = ids.map { .update($0, [.toggle], at: date) }
        case .completeAll, .reopenAll:
            // Which items change is known once the step is made.
            let step = try await store.perform([.todos(request == .completeAll ? .completeAll(at: date) : .reopenAll(at: date))])
            let ids = step.changes.flatMap { change -> [UUID] in
                guard case .todos(.replace(let items)) = change else { return [] }
                return items.map(\.id)
            }
            return try await store.items(ids)
        }
        // The items as the step left them, answered from the store's turn.
        var seen = Set<UUID>()
        let ids = changes.compactMap { change -> UUID? in
            switch change {
            case .todos(.update(let id, _, _)): id
            case .todos(.replace(let items)): items.first?.id
            default: nil
            }
        }
        return try await store.perform(changes, answering: ids.filter { seen.insert($0).inserted })
    }
}
