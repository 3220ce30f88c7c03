import Foundation
import Rewind
import TodoStore
import Todos

/// The web app's door into the to-do domain: requests go to the app
/// domain (the same one the CLI uses), reads to the store. A failure of the
/// domain becomes the ``APIError`` that names it (``ErrorMiddleware`` asks
/// ``apiError(for:)``). It adds no domain logic of its own.
struct TodoService: Sendable {
    /// The store the app domain works on, injected by the executable.
    let store: any AppStore
    /// The clock that dates items and tells what is overdue.
    let now: @Sendable () -> Date
    /// The app domain over ``store``.
    let app: AppDomain
    /// The texts of due dates the pages write, kept for the day.
    let dueDates = DueDateTexts()
    /// One edit begun from given values (`was`) at a time, so that two
    /// of them sent at once do not both find the values they began from:
    /// the second finds the first's.
    let guardedEdits = Turns(1)

    /// Creates the service over `store`; new items get their ids from `makeID`.
    init(store: any AppStore, now: @escaping @Sendable () -> Date, makeID: @escaping @Sendable () -> UUID) {
        self.store = store
        self.now = now
        app = AppDomain(store: store, now: now, makeID: makeID)
    }

    /// The answer for a failure of the domain: 404 for an unknown id, 422
    /// for an invalid value, 409 when nothing would change, 503 when the
    /// store cannot read or save (its details for the log only).
    static func apiError(for failure: TodoFailure) -> APIError {
        switch failure {
        case .invalid: APIError.invalidField(failure.description)
        case .notFound: APIError.notFound(failure.description)
        case .nothingToChange: APIError.conflict(failure.description)
        case .history(let error):
            switch error {
            case .positionOutOfRange, .stepNotFound: APIError.invalidField(failure.description)
            default: APIError.conflict(failure.description)
            }
        case .store: APIError.storeFailed(failure.description)
        case .storeOutcomeUnknown: APIError(.serviceUnavailable, APIError.outcomeUnknownMessage, logged: failure.description)
        }
    }

    // MARK: Reading

    /// Runs `body` with the current state where the store works.
    ///
    /// - Throws: What `body` throws, or ``APIError`` 503 when the store
    ///   cannot be read.
    func read<Value: Sendable>(_ body: @escaping @Sendable (AppState) throws -> Value) async throws -> Value {
        try await asking { try await store.read(body) }
    }

    /// The history's steps and position.
    func history() async throws -> HistoryOverview {
        try await asking { try await store.history() }
    }

    /// Every step of the history, the abandoned branches included, and the
    /// current one.
    func historyTree() async throws -> HistoryTree {
        try await asking { try await store.historyTree() }
    }

    /// Runs a read of the store, turning its failure into the ``APIError``
    /// that names it (an ``APIError`` passes as it is).
    private func asking<Value>(_ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch let error as APIError {
            throw error
        } catch {
            throw Self.apiError(for: TodoFailure(error))
        }
    }

    /// The item with `id`.
    ///
    /// - Throws: ``APIError`` 404 when there is none.
    func item(_ id: UUID) async throws -> TodoItem {
        guard let item = try await read({ $0.todos[id: id] }) else {
            throw APIError.notFound("There is no item with id \(id.uuidString).")
        }
        return item
    }

    /// The items that pass `filter` and that `search` finds, in `sort`'s
    /// order, from `offset` on (`limit` at most); how many items pass; and
    /// the counts of the whole list, as of `now`.
    ///
    /// - Complexity: in the list's order without a search, O(`offset` +
    ///   `limit`) items read; otherwise every item.
    func list(
        _ filter: TodoFilter, sortedBy sort: TodoSort, matching search: TodoSearch? = nil, now: Date,
        offset: Int = 0, limit: Int? = nil
    ) async throws -> (items: [TodoItem], found: Int, counts: TodoCounts) {
        try await read { state in
            let (items, found) = state.todos.page(filter, sortedBy: sort, matching: search, now: now, offset: offset, limit: limit)
            return (items, found, state.todos.counts(now: now))
        }
    }

    /// The rows a page shows (``RowWindow``) of the items that pass
    /// `filter` and that `search` finds, in `sort`'s order; how many items
    /// pass; and the counts of the whole list, as of `now`.
    func rows(
        _ window: RowWindow, _ filter: TodoFilter, sortedBy sort: TodoSort, matching search: TodoSearch?, now: Date
    ) async throws -> (rows: [TodoItem], found: Int, counts: TodoCounts) {
        try await read { state in
            let (rows, found) = window.rows(of: state.todos, filter, sortedBy: sort, matching: search, now: now)
            return (rows, found, state.todos.counts(now: now))
        }
    }

    /// A stream with an element after every change of the store, including
    /// changes another process made to a shared store.
    func updates() async -> AsyncStream<Void> {
        await store.updates()
    }

    /// The store's name of where the list stands (the event stream's id),
    /// `nil` when it has none or cannot say.
    func updateMark() async -> String? {
        try? await store.updateMark()
    }
}
