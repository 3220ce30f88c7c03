import Foundation

/// Imports items as one undo step: replacing the whole list, or merging by
/// id (known ids are replaced, new ones appended).
public struct ListImporter: UseCase {
    /// What can be asked.
    public enum Request: Equatable, Sendable {
        /// Makes these items the whole list.
        case replaceAll([TodoItem])
        /// Replaces the items whose ids are known and appends the others.
        case merge([TodoItem])

        /// The items imported.
        var items: [TodoItem] {
            switch self {
            case .replaceAll(let items), .merge(let items): items
            }
        }
    }

    /// What is answered: how many items were imported, and how many of
    /// the list went because the document that replaced it lacked them.
    public struct Response: Equatable, Sendable {
        /// How many items the document held.
        public let imported: Int
        /// How many items of the list the import removed (`0` for a merge).
        public let removed: Int

        /// An answer of `imported` items that removed `removed`.
        public init(imported: Int, removed: Int = 0) {
            self.imported = imported
            self.removed = removed
        }
    }

    private let store: any AppStore

    /// Creates the use case over `store`.
    public init(store: any AppStore) {
        self.store = store
    }

    /// Imports the items and says how many, and how many it removed.
    ///
    /// - Throws: ``TodoFailure/nothingToChange(_:)``, and makes no step,
    ///   when the list already is (or, for a merge, already holds) the
    ///   items as imported.
    public func request(to request: Request) async throws(TodoFailure) -> Response {
        let items: [TodoItem]
        let changes: [AppState.Change]
        var removed = 0
        let count = request.items.count
        let holds = "the list already holds " + (count == 1 ? "this item as it is" : "these \(count) items as they are")
        switch request {
        case .replaceAll(let all):
            items = all
            let list: TodoList
            do {
                list = try TodoList(items: all)
            } catch {
                throw .invalid(error)
            }
            let (same, gone) = try await store.reading { state in
                (state.todos == list, state.todos.items.count { !list.contains(id: $0.id) })
            }
            if same { throw .nothingToChange(holds) }
            removed = gone
            changes = [.setting(.todos(list))]
        case .merge(let merged):
            items = merged
            // One read of the list (a merge of many items replaces many rows, which reads it anyway).
            let (known, unchanged) = try await store.reading { state in
                let known = Set(merged.lazy.map(\.id).filter(state.todos.contains(id:)))
                return (known, known.count == merged.count && merged.allSatisfy { state.todos[id: $0.id] == $0 })
            }
            if unchanged { throw .nothingToChange(holds) }
            let replaced = merged.filter { known.contains($0.id) }
            changes = (replaced.isEmpty ? [] : [.todos(.replace(replaced))])
                + merged.filter { !known.contains($0.id) }.map { .add($0) }
        }
        _ = try await store.perform(changes, named: "Import \(items.count) item\(items.count == 1 ? "" : "s")")
        return Response(imported: items.count, removed: removed)
    }
}
