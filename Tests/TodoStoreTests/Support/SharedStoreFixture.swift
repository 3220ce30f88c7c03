import Foundation
import Testing
import TestSupport
import Todos
@testable import TodoStore
@testable import TodoStorePostgres

/// The stores of shared lists that one test suite runs against. The
/// PostgreSQL one needs a server (`REWIND_TEST_DATABASE_URL`).
enum SharedStoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory, sqlite, postgres

    /// The stores the suite runs against here: PostgreSQL only when there
    /// is a server to test it on.
    static var tested: [SharedStoreKind] {
        PostgresTestDatabase.url == nil ? allCases.filter { $0 != .postgres } : allCases
    }

    /// The stores that keep their lists when reopened, and that several
    /// instances can open at once.
    static var persistent: [SharedStoreKind] { tested.filter { $0 != .memory } }

    var testDescription: String { rawValue }
}

/// A temporary folder (or PostgreSQL schema) for one test, and the stores
/// of shared lists opened in it.
final class SharedStoreFixture: @unchecked Sendable {
    let kind: SharedStoreKind
    let directory: URL
    private var memory: InMemorySharedListStore?
    /// The test's own PostgreSQL schema, made at the first open.
    private var postgres: PostgresTestDatabase?
    /// Moves a tenth of a second per reading: rows have dates of their own,
    /// and a person's quick renames can join one step.
    let clock = TestClock(Date(timeIntervalSince1970: 1_795_000_000), tick: 0.1)

    init(_ kind: SharedStoreKind) throws {
        self.kind = kind
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("rewind-shared-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    var fileURL: URL { directory.appendingPathComponent("rewind.sqlite") }

    /// The PostgreSQL schema of the test, once a store was opened in it.
    var postgresDatabase: PostgresTestDatabase? { postgres }

    /// Opens the store; for a persistent kind each call opens the same file
    /// (or database) as a new store, as a new process would. The memory
    /// store is opened once.
    func open(cachedRows: Int = 100_000) async throws -> any SharedListStore {
        switch kind {
        case .memory:
            if let memory { return memory }
            let store = InMemorySharedListStore(now: clock.now)
            memory = store
            return store
        case .sqlite:
            return try await SQLiteSharedListStore.open(url: fileURL, now: clock.now, cachedRows: cachedRows)
        case .postgres:
            if postgres == nil { postgres = try await PostgresTestDatabase.make() }
            guard let postgres else { throw CancellationError() }
            return try await PostgresSharedListStore.open(postgres.database, now: clock.now, cachedRows: cachedRows)
        }
    }

    /// The lists `store` holds in memory, for a store that keeps some.
    func heldLists(in store: any SharedListStore) async -> Set<UUID>? {
        if let sqlite = store as? SQLiteSharedListStore { return await sqlite.heldLists }
        if let postgres = store as? PostgresSharedListStore { return await postgres.heldLists }
        return nil
    }

    /// How many log rows of `list` the store holds in memory, for a store
    /// that reads them from a database.
    func heldRowCount(of list: UUID, in store: any SharedListStore) async -> Int? {
        if let sqlite = store as? SQLiteSharedListStore { return await sqlite.heldRowCount(of: list) }
        if let postgres = store as? PostgresSharedListStore { return await postgres.heldRowCount(of: list) }
        return nil
    }

    /// How many log rows of `list` the store holds in memory as summaries
    /// alone, for a store that reads them from a database.
    func heldSummaryCount(of list: UUID, in store: any SharedListStore) async -> Int? {
        if let sqlite = store as? SQLiteSharedListStore { return await sqlite.heldSummaryCount(of: list) }
        if let postgres = store as? PostgresSharedListStore { return await postgres.heldSummaryCount(of: list) }
        return nil
    }

    /// Every log row of `list` as the store saved it, oldest first.
    func savedRows(of list: UUID, in store: any SharedListStore) async throws -> [SharedStep] {
        if let sqlite = store as? SQLiteSharedListStore { return try await sqlite.savedRows(of: list) }
        if let postgres = store as? PostgresSharedListStore { return try await postgres.savedRows(of: list) }
        if let memory = store as? InMemorySharedListStore { return try await memory.savedRows(of: list) }
        throw CancellationError()
    }

    /// The latest writer of each part as the store saved it, for a store
    /// that keeps them in a table of their own.
    func savedWriters(of list: UUID, in store: any SharedListStore) async throws -> [ItemPartKey: (seq: Int, author: String)]? {
        if let sqlite = store as? SQLiteSharedListStore { return try await sqlite.savedWriters(of: list) }
        if let postgres = store as? PostgresSharedListStore { return try await postgres.savedWriters(of: list) }
        return nil
    }
}

/// People, items and dates of the shared-list store tests.
enum Team {
    static var ann: AccountName { get throws { try AccountName("ann") } }
    static var bob: AccountName { get throws { try AccountName("bob") } }
    static var cem: AccountName { get throws { try AccountName("cem") } }
    static var eve: AccountName { get throws { try AccountName("eve") } }
    static var people: [AccountName] { get throws { [try ann, try bob, try cem] } }
    static let date = Date(timeIntervalSince1970: 1_800_000_000)

    static func id(_ n: Int) -> UUID {
        UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, UInt8(n / 256), UInt8(n % 256)))
    }

    static func item(_ title: String, _ n: Int) throws -> TodoItem {
        try TodoItem(id: id(n), title: title, created: date)
    }
}
