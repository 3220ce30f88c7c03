import Foundation
import TodoStore
import Todos

/// One command's way into the to-do app: the data directory, its SQLite
/// store (opened once), and the app domain in front of the store.
///
/// Commands change data only by sending requests to the domain, as the web
/// app does; they read the store directly to show it.
///
/// ```swift
/// let session = try await TodoSession.open(options: options)
/// let milk = try await session.app.send(.create(.init(title: "Buy milk"), at: nil))
/// ```
struct TodoSession: Sendable {
    /// Where the data is.
    let directory: DataDirectory
    /// The open store.
    let store: SQLiteStore
    /// The app domain over ``store``: where every change goes.
    let app: AppDomain

    /// Opens (creating if needed) the data directory and its store.
    ///
    /// - Throws: ``StoreError`` when the directory cannot be made or the
    ///   database is not one this version can use; nothing is changed then.
    static func open(options: TodoOptions) async throws -> TodoSession {
        let directory = DataDirectory.resolve(explicitPath: options.dataDirectory)
        try directory.create()
        // A short-lived process: no polling for other processes' changes.
        // A short-lived process that touches a few items: their rows are
        // read, not the whole list, unless a command asks for it.
        let store = try await SQLiteStore.open(url: directory.databaseURL, pollInterval: nil, items: .onDemand)
        return TodoSession(
            directory: directory, store: store, app: AppDomain(store: store, now: { Date() }, makeID: { UUID() }))
    }

    /// The item list as it is now, read without copying.
    func read<Result: Sendable>(_ body: @escaping @Sendable (TodoList) throws -> Result) async throws -> Result {
        try await store.read { try body($0.todos) }
    }

    /// The last listing's file in the data directory.
    var lastListing: LastListing {
        LastListing(directory: directory)
    }
}

extension TodoSession {
    /// The ids of the items `references` name (numbers of the last listing
    /// or id prefixes), in order, each once.
    ///
    /// - Throws: ``TodoCommandError`` naming the first unknown or ambiguous reference.
    func resolve(_ references: [String]) async throws -> [UUID] {
        let listing = lastListing
        return try await store.searchIDs { index in
            try ItemReferences(index: index, listing: { listing.load() }).resolve(references)
        }
    }

    /// The current versions of the items with `ids` that exist, and their short references.
    func items(_ ids: [UUID]) async throws -> (items: [TodoItem], references: ShortReferences) {
        (try await store.items(withIDs: ids), try await references(for: ids))
    }

    /// The short references of the items with `ids`, among the items there are now.
    func references(for ids: [UUID]) async throws -> ShortReferences {
        try await store.searchIDs { index in try ShortReferences(ids: ids, neighbours: index.neighbours(of:)) }
    }

    /// The short references of every item (the whole list is read).
    func references() async throws -> ShortReferences {
        try await read { ShortReferences(list: $0) }
    }
}
