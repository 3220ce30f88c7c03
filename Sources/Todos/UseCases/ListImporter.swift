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

    /// What is answered: how many items were imported.
    public typealias Response = Int

    private let store: any AppStore

    /// Creates the use case over `store`.
    public init(store: any AppStore) {
        self.store = store
    }

    /// Imports the items and returns how many.
    ///
    /// - Throws: ``TodoFailure/nothingToChange(_:)``, and makes no step,
    ///   when the list already is (or, for a merge, already holds) the
    ///   items as imported.
    public func request(to request: Request) async throws(TodoFailure) -> Int {
        let items: [TodoItem]
        let changes: [AppState.Change]
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
            if try await store.reading({ $0.todos == list }) { throw .nothingToChange(holds) }
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
        return items.count
    }
}
