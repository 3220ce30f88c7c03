import Foundation
import GRDB
import Testing
import Rewind
import TestSupport
import Todos
import TodoStore
import TodoStorePostgres

/// The four stores that one test suite runs against. The PostgreSQL one
/// needs a server (`REWIND_TEST_DATABASE_URL`).
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory, jsonFile, sqlite, postgres

    /// The stores the suite runs against here: every one, PostgreSQL only
    /// when there is a server to test it on (when there is none, the
    /// PostgreSQL tests, skipped, print why).
    static var tested: [StoreKind] {
        PostgresTestDatabase.url == nil ? allCases.filter { $0 != .postgres } : allCases
    }

    var testDescription: String { rawValue }

    /// Whether reopening the store finds what was saved.
    var persists: Bool { self != .memory }

    /// Whether the store keeps the branches a change after an undo leaves
    /// (an append-only log).
    var keepsBranches: Bool { self == .sqlite || self == .postgres }
}

/// A temporary folder for one test, and the stores opened in it.
final class StoreFixture: @unchecked Sendable {
    let kind: StoreKind
    let directory: URL
    private var memory: InMemoryStore?
    private var memoryAccounts: InMemoryAccountStore?
    /// The test's own PostgreSQL schema, made at the first open.
    private var postgres: PostgresTestDatabase?

    /// The PostgreSQL schema of the test, once a store was opened in it.
    var postgresDatabase: PostgresTestDatabase? { postgres }
    /// Moves one second per reading, so that every step has a date of its own.
    let clock = TestClock(Date(timeIntervalSince1970: 1_795_000_000), tick: 1)

    init(_ kind: StoreKind) throws {
        self.kind = kind
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("rewind-store-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    var fileURL: URL {
        directory.appendingPathComponent(kind == .jsonFile ? "todos.json" : "rewind.sqlite")
    }

    /// Opens the store; for a persistent kind a second call opens the same
    /// file (or database) as a new store, as a new process would.
    func open(limit: Int? = nil) async throws -> any AppStore {
        let now = clock.now
        switch kind {
        case .memory:
            if let memory { return memory }
            let store = InMemoryStore(limit: limit, now: now)
            memory = store
            return store
        case .jsonFile:
            return try JSONFileStore(url: fileURL, limit: limit, now: now)
        case .sqlite:
            return try SQLiteStore(url: fileURL, limit: limit, pollInterval: nil, now: now)
        case .postgres:
            if postgres == nil { postgres = try await PostgresTestDatabase.make() }
            guard let postgres else { throw CancellationError() }
            return try await PostgresStore.open(postgres.database, limit: limit, now: now)
        }
    }

    /// Opens the accounts kept with the store (not in a JSON file: there,
    /// in memory); for a persistent kind a second call opens the same file
    /// (or database) again, as a new process would.
    func accounts() async throws -> any SessionStore {
        let now = clock.now
        switch kind {
        case .memory, .jsonFile:
            if let memoryAccounts { return memoryAccounts }
            let accounts = InMemoryAccountStore(now: now)
            memoryAccounts = accounts
            return accounts
        case .sqlite:
            return try await SQLiteAccountStore.open(url: fileURL, now: now)
        case .postgres:
            // The test's own schema, made by the list's store.
            _ = try await open()
            guard let postgres else { throw CancellationError() }
            return try await PostgresAccountStore.open(postgres.database, now: now)
        }
    }

    /// The changes the log holds for its steps, as saved (`forward`), oldest
    /// first; `nil` for a store that keeps no log.
    func savedForwardChanges() async throws -> [String]? {
        switch kind {
        case .memory, .jsonFile:
            return nil
        case .sqlite:
            let queue = try DatabaseQueue(path: fileURL.path)
            defer { try? queue.close() }
            return try await queue.read { db in try String.fetchAll(db, sql: "SELECT forward FROM step ORDER BY seq") }
        case .postgres:
            guard let postgres else { return nil }
            return try await postgres.database.client.query("SELECT forward::text FROM rewind_step ORDER BY seq")
                .decode(String.self).reduce(into: [String]()) { $0.append($1) }
        }
    }

    func item(_ title: String) throws -> TodoItem {
        try TodoItem(id: UUID(), title: title, created: clock.now())
    }

    /// A fresh folder holding a copy of the database of the data directory
    /// an earlier version wrote, `Fixtures/<name>/rewind.sqlite`.
    static func copy(of name: String) throws -> StoreFixture {
        let fixture = try StoreFixture(.sqlite)
        let source = try #require(Bundle.module.url(forResource: "Fixtures/\(name)/rewind", withExtension: "sqlite"))
        try FileManager.default.copyItem(at: source, to: fixture.fileURL)
        return fixture
    }

    /// What that version's export of `Fixtures/<name>` wrote: the items in
    /// order, every field.
    static func expectedItems(of name: String) throws -> [TodoItem] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)/expected-items", withExtension: "json"))
        return try TodoJSON.decode(AppState.self, from: Data(contentsOf: url)).todos.items
    }
}

/// The products folder of the build, where the test bundle and the programs are.
enum Products {
    static var directory: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On macOS the runner lives inside the .xctest bundle.
        while url.pathComponents.count > 1 && url.lastPathComponent != "debug" && url.lastPathComponent != "release"
            && !FileManager.default.fileExists(atPath: url.appendingPathComponent("StoreProbe").path) {
            url.deleteLastPathComponent()
        }
        return url
    }

    static var storeProbe: URL {
        directory.appendingPathComponent("StoreProbe")
    }
}

extension Task where Success == Never, Failure == Never {
    /// Waits `seconds` without holding a thread.
    static func sleep(seconds: Double) async throws {
        try await sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    }
}
