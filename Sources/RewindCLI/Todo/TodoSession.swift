import Foundation
import TodoStore
import Todos

/// One command's way into the to-do app: the data directory, its SQLite
/// store (opened once), and the app domain in front of the store.
///
/// Commands change data only by sending messages to the domain, as the web
/// app does; they read the store directly to show it.
///
/// ```swift
/// let session = try TodoSession(options: options)
/// let ack = try session.send(.create(draft: .init(title: "Buy milk"), at: nil))
/// ```
final class TodoSession {
    /// Where the data is.
    let directory: DataDirectory
    /// The open store.
    let store: SQLiteStore
    private let app: MessageHandler
    private let inbox = Inbox()

    /// Opens (creating if needed) the data directory and its store.
    ///
    /// - Throws: ``StoreError`` when the directory cannot be made or the
    ///   database is not one this version can use; nothing is changed then.
    init(options: TodoOptions) throws {
        directory = DataDirectory.resolve(explicitPath: options.dataDirectory)
        try directory.create()
        // A short-lived process: no polling for other processes' changes.
        store = try SQLiteStore(url: directory.databaseURL, pollInterval: nil)
        let inbox = inbox
        app = createAppDomain(
            store: store, receivers: [], rootHandler: { inbox.append($0) },
            now: { Date() }, makeID: { UUID() })
    }

    /// Sends a to-do command and returns its acknowledgement.
    ///
    /// - Throws: The ``TodoFailure`` of a refused command; nothing changed then.
    @discardableResult
    func send(_ command: Message.Todos.CMD) throws -> Message.Todos.ACK {
        app(.todos(.cmd(command)))
        for message in inbox.take() {
            guard case .todos(.ack(let ack)) = message else { continue }
            if case .failed(let failure) = ack { throw failure }
            return ack
        }
        throw TodoCommandError("the to-do domain did not answer the command")
    }

    /// Sends a history command (undo, redo, jump) and returns its acknowledgement.
    ///
    /// - Throws: The ``TodoFailure`` of a refused command; nothing changed then.
    @discardableResult
    func send(_ command: Message.History.CMD) throws -> Message.History.ACK {
        app(.history(.cmd(command)))
        for message in inbox.take() {
            guard case .history(.ack(let ack)) = message else { continue }
            if case .failed(let failure) = ack { throw failure }
            return ack
        }
        throw TodoCommandError("the history did not answer the command")
    }

    /// The item list as it is now, read without copying.
    func read<Result>(_ body: (TodoList) throws -> Result) rethrows -> Result {
        try store.read { try body($0.todos) }
    }

    /// The last listing's file in the data directory.
    var lastListing: LastListing {
        LastListing(directory: directory)
    }
}

/// The acknowledgements the app domain sent back, collected in order.
private final class Inbox: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [Message] = []

    func append(_ message: Message) {
        lock.withLock { messages.append(message) }
    }

    /// The collected messages; the inbox is empty afterwards.
    func take() -> [Message] {
        lock.withLock {
            defer { messages.removeAll() }
            return messages
        }
    }
}

extension TodoSession {
    /// The ids of the items `references` name (numbers of the last listing
    /// or id prefixes), in order, each once.
    ///
    /// - Throws: ``TodoCommandError`` naming the first unknown or ambiguous reference.
    func resolve(_ references: [String]) throws -> [UUID] {
        let listing = lastListing
        return try read { list in
            try ItemReferences(list: list, listing: { listing.load() }).resolve(references)
        }
    }

    /// The current versions of the items with `ids` that exist, and their short references.
    func items(_ ids: [UUID]) -> (items: [TodoItem], references: ShortReferences) {
        read { list in (ids.compactMap { list[id: $0] }, ShortReferences(list: list)) }
    }
}
