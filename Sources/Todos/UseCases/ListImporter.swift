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

    /// What is answered.
    public enum Response: Equatable, Sendable {
        /// This many items were imported.
        case imported(count: Int)
        /// Nothing was imported.
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
        let items: [TodoItem]
        let changes: [AppState.Change]
        switch request {
        case .replaceAll(let all):
            items = all
            do {
                changes = [.setting(.todos(try TodoList(items: all)))]
            } catch {
                return respond(.failed(.invalid(error)))
            }
        case .merge(let merged):
            items = merged
            let known = store.read { state in Set(merged.lazy.map(\.id).filter(state.todos.contains(id:))) }
            let replaced = merged.filter { known.contains($0.id) }
            changes = (replaced.isEmpty ? [] : [.todos(.replace(replaced))])
                + merged.filter { !known.contains($0.id) }.map { .add($0) }
        }
        let name = "Import \(items.count) item\(items.count == 1 ? "" : "s")"
        switch store.perform(changes, named: name) {
        case .success: respond(.imported(count: items.count))
        case .failure(let failure): respond(.failed(failure))
        }
    }
}
