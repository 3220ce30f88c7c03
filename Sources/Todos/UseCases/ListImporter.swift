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
    }

    /// What is answered: how many items were imported.
    public typealias Response = Int

    private let store: any AppStore

    /// Creates the use case over `store`.
    public init(store: any AppStore) {
        self.store = store
    }

    /// Imports the items and returns how many.
    public func request(to request: Request) async throws(TodoFailure) -> Int {
        let items: [TodoItem]
        let changes: [AppState.Change]
        switch request {
        case .replaceAll(let all):
            items = all
            do {
                changes = [.setting(.todos(try TodoList(items: all)))]
            } catch {
                throw .invalid(error)
            }
        case .merge(let merged):
            items = merged
            let known = try await store.reading { state in Set(merged.lazy.map(\.id).filter(state.todos.contains(id:))) }
            let replaced = merged.filter { known.contains($0.id) }
            changes = (replaced.isEmpty ? [] : [.todos(.replace(replaced))])
                + merged.filter { !known.contains($0.id) }.map { .add($0) }
        }
        _ = try await store.perform(changes, named: "Import \(items.count) item\(items.count == 1 ? "" : "s")")
        return items.count
    }
}
