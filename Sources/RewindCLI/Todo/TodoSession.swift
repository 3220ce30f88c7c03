import Foundation
import TodoStore
import TodoStorePostgres
import Todos

/// One command's way into the to-do app: the data directory, its SQLite
/// store or the PostgreSQL database of `--database` (opened once), and the
/// app domain in front of the store.
///
/// Commands change data only by sending requests to the domain, as the web
/// app does; they read the store directly to show it.
///
/// ```swift
/// let session = try await TodoSession.open(options: options)
/// let milk = try await session.app.send(.create(.init(title: "Buy milk"), at: nil))
/// ```
struct TodoSession: Sendable {
    /// Where the data is (with PostgreSQL, the numbers of the last listing).
    let directory: DataDirectory
    /// The open store.
    let store: any AppStore
    /// The app domain over ``store``: where every change goes.
    let app: AppDomain
    /// The SQLite store, whose rows are read one by one; `nil` with PostgreSQL.
    private let sqlite: SQLiteStore?

    /// Opens (creating if needed) the data directory and its store, or the
    /// PostgreSQL database of `--database` or `REWIND_DATABASE_URL`. With
    /// `onlyReading` (a command that changes nothing), a data directory that
    /// does not exist is not made: the command reads an empty list, kept in
    /// memory, and a note on standard error says the folder does not exist.
    ///
    /// - Throws: ``StoreError`` when the directory cannot be made or the
    ///   database cannot be reached or is not one this version can use
    ///   (nothing is changed then); ``TodoCommandError`` (exit status 64)
    ///   for a malformed database URL.
    static func open(options: TodoOptions, onlyReading: Bool = false) async throws -> TodoSession {
        // A command that changes nothing on a data directory that does not
        // exist reads an empty list, and makes no folder (a mistyped --data-dir).
        if onlyReading, let absent = try options.absentDataDirectory() {
            TodoTerminal.note("\(TypedText.visible(absent.url.path)) does not exist yet: nothing is kept there (the first add makes it).")
            return TodoSession(directory: absent, store: InMemoryStore(now: { Date() }), sqlite: nil)
        }
        let (directory, url) = try options.storage()
        if let url {
            let database = try PostgresTodoDatabase(url: url, maximumConnections: 2)
            let store = try await PostgresStore.open(database)
            // The pool runs while the process does, which ends with the command.
            Task { await database.run() }
            return TodoSession(directory: directory, store: store, sqlite: nil)
        }
        // A short-lived process: no polling for other processes' changes.
        // A short-lived process that touches a few items: their rows are
        // read, not the whole list, unless a command asks for it.
        let store = try await SQLiteStore.open(url: directory.databaseURL, pollInterval: nil, items: .onDemand)
        return TodoSession(directory: directory, store: store, sqlite: store)
    }

    private init(directory: DataDirectory, store: any AppStore, sqlite: SQLiteStore?) {
        self.directory = directory
        self.store = store
        self.sqlite = sqlite
        app = AppDomain(store: store, now: { Date() }, makeID: { .random() })
    }

    /// The item list as it is now, read without copying.
    func read<Result: Sendable>(_ body: @escaping @Sendable (TodoList) throws -> Result) async throws -> Result {
        try await store.read { try body($0.todos) }
    }

    /// The last listing's file in the data directory.
    var lastListing: LastListing {
        LastListing(directory: directory)
    }

    /// Runs `body` with the index of the ids of the items: SQLite's index
    /// of its rows, or the ids of the list read from PostgreSQL.
    func searchIDs<Result: Sendable>(_ body: @escaping @Sendable (any ItemIndex) throws -> Result) async throws -> Result {
        if let sqlite { return try await sqlite.searchIDs { try body($0) } }
        return try await store.read { state in try body(SortedItemIDs(state.todos.ids)) }
    }

    /// The items in `state` in list order and the counts of the whole list
    /// at `now` (with `dueOnly`, only the items with a due date): SQLite
    /// reads the rows in `state`; PostgreSQL's list is read whole.
    func items(in state: TodoItem.State, dueOnly: Bool, now: Date) async throws -> (items: [TodoItem], counts: TodoCounts) {
        if let sqlite { return try await sqlite.items(in: state, dueOnly: dueOnly, now: now) }
        return try await store.read { app in
            (app.todos.items.filter { $0.state == state && (!dueOnly || $0.due != .unknown) }, app.todos.counts(now: now))
        }
    }
}

extension TodoSession {
    /// The ids of the items `references` name (numbers of the last listing
    /// or id prefixes), in order, each once.
    ///
    /// - Throws: ``TodoCommandError`` naming the first unknown or ambiguous reference.
    func resolve(_ references: [String]) async throws -> [UUID] {
        let listing = lastListing
        return try await searchIDs { index in
            try ItemReferences(index: index, listing: { listing.load() }).resolve(references)
        }
    }

    /// The current versions of the items with `ids` that exist, and their short references.
    func items(_ ids: [UUID]) async throws -> (items: [TodoItem], references: ShortReferences) {
        (try await store.items(withIDs: ids), try await references(for: ids))
    }

    /// The short references of the items with `ids`, among the items there are now.
    func references(for ids: [UUID]) async throws -> ShortReferences {
        try await searchIDs { index in try ShortReferences(ids: ids, neighbours: index.neighbours(of:)) }
    }

    /// The short references of every item (the whole list is read).
    func references() async throws -> ShortReferences {
        try await read { ShortReferences(list: $0) }
    }
}
