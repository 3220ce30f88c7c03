import Foundation
import GRDB
import PostgresNIO
import Testing
import Todos
@testable import TodoStore
import TodoStorePostgres

extension StoreKind {
    /// The stores that keep accounts: every kind but the JSON file.
    static var keepingAccounts: [StoreKind] { tested.filter { $0 != .jsonFile } }
}

/// What every account store does: names kept as typed and found without
/// case, one account per name, hashes replaced and accounts removed by name,
/// and refusals that change nothing.
@Suite("Every account store")
struct AccountStoreTests {
    @Test(arguments: StoreKind.keepingAccounts)
    func anAddedAccountIsListedWithItsNameAsTypedAndItsDate(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let accounts = try await fixture.accounts()
        let bob = try await accounts.add(name: AccountName("bob"), passwordHash: "hash-of-bob")
        let ann = try await accounts.add(name: AccountName("Ann"), passwordHash: "hash-of-ann")
        #expect(try await accounts.list() == [ann, bob])
        #expect(try await accounts.list().map(\.name.text) == ["Ann", "bob"])
        #expect(ann.created > bob.created)
        #expect(try await accounts.passwordHash(for: AccountName("ANN")) == "hash-of-ann")
        #expect(try await accounts.passwordHash(for: AccountName("carol")) == nil)
        #expect(try await fixture.accounts().list() == [ann, bob])
    }

    @Test(arguments: StoreKind.keepingAccounts)
    func aNameTakenInAnotherCaseIsRefusedAndTheFirstHashKept(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let accounts = try await fixture.accounts()
        let ann = try await accounts.add(name: AccountName("Ann"), passwordHash: "first")
        await #expect(throws: AccountStoreError.nameTaken(existing: "Ann")) {
            try await accounts.add(name: AccountName("aNN"), passwordHash: "second")
        }
        #expect(try await fixture.accounts().list() == [ann])
        #expect(try await fixture.accounts().passwordHash(for: AccountName("ann")) == "first")
    }

    @Test(arguments: StoreKind.keepingAccounts)
    func aNewHashReplacesOnlyThatAccountsOne(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let accounts = try await fixture.accounts()
        try await accounts.add(name: AccountName("ann"), passwordHash: "ann-1")
        try await accounts.add(name: AccountName("bob"), passwordHash: "bob-1")
        try await accounts.setPasswordHash(name: AccountName("ANN"), "ann-2")
        #expect(try await fixture.accounts().passwordHash(for: AccountName("ann")) == "ann-2")
        #expect(try await fixture.accounts().passwordHash(for: AccountName("bob")) == "bob-1")
        await #expect(throws: AccountStoreError.noSuchAccount("carol")) {
            try await accounts.setPasswordHash(name: AccountName("carol"), "carol-1")
        }
        #expect(try await accounts.list().map(\.name.text) == ["ann", "bob"])
    }

    @Test(arguments: StoreKind.keepingAccounts)
    func aRemovedAccountIsGoneAndAnUnknownOneIsRefused(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let accounts = try await fixture.accounts()
        let ann = try await accounts.add(name: AccountName("Ann"), passwordHash: "ann-1")
        let bob = try await accounts.add(name: AccountName("bob"), passwordHash: "bob-1")
        #expect(try await accounts.remove(name: AccountName("ann")) == ann)
        #expect(try await fixture.accounts().list() == [bob])
        #expect(try await accounts.passwordHash(for: AccountName("ann")) == nil)
        await #expect(throws: AccountStoreError.noSuchAccount("ann")) {
            try await accounts.remove(name: AccountName("ann"))
        }
        #expect(try await fixture.accounts().list() == [bob])
        // The name is free again.
        try await accounts.add(name: AccountName("ANN"), passwordHash: "ann-2")
        #expect(try await accounts.list().map(\.name.text) == ["ANN", "bob"])
    }

    @Test(arguments: StoreKind.keepingAccounts)
    func accountsLeaveTheListAndItsHistoryAlone(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let store = try await fixture.open()
        try await store.change(.add(try fixture.item("Buy milk")))
        let accounts = try await fixture.accounts()
        try await accounts.add(name: AccountName("ann"), passwordHash: "ann-1")
        #expect(try await fixture.open().state().todos.items.map(\.title) == ["Buy milk"])
        #expect(try await fixture.open().undo() == "Add “Buy milk”")
        #expect(try await fixture.accounts().list().map(\.name.text) == ["ann"])
    }
}

/// The accounts' table in the SQLite file: schema v4.
@Suite("SQLite accounts migration")
struct SQLiteAccountsMigrationTests {
    /// A file as the previous version (schema v3) left it, holding one item.
    private func v3File() async throws -> StoreFixture {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        try await store.change(.add(try fixture.item("Buy milk")))
        let queue = try DatabaseQueue(path: fixture.fileURL.path)
        try await queue.write { db in
            try db.execute(sql: """
                DROP TABLE shared_writer; DROP TABLE shared_step; DROP TABLE shared_item; DROP TABLE shared_member;
                DROP TABLE shared_list; DROP TABLE session; DROP TABLE account; DROP TABLE calculator_step; DROP TABLE calculator;
                DELETE FROM grdb_migrations
                WHERE identifier IN ('v4', 'v5', 'v5-shared-lists', 'v6-shared-step-heads', 'v7-shared-step-rowid', 'v8-calculators', 'v9-meta-counts', 'v10-earlier-rows')
                """)
        }
        try queue.close()
        return fixture
    }

    private func migrations(_ url: URL) async throws -> [String] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try await queue.read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ")
        }.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
    }

    @Test func aFileOfThePreviousSchemaGetsTheAccountsTableAndKeepsItsList() async throws {
        let fixture = try await v3File()
        #expect(try await migrations(fixture.fileURL) == ["v1", "v2", "v3"])
        let accounts = try await SQLiteAccountStore.open(url: fixture.fileURL)
        try await accounts.add(name: AccountName("ann"), passwordHash: "ann-1")
        #expect(try await migrations(fixture.fileURL) == ["v1", "v2", "v3", "v4", "v5", "v5-shared-lists", "v6-shared-step-heads", "v7-shared-step-rowid", "v8-calculators", "v9-meta-counts", "v10-earlier-rows"])
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect(try await store.state().todos.items.map(\.title) == ["Buy milk"])
        #expect(try await store.undo() == "Add “Buy milk”")
    }

    @Test func theTableHasTheNameKeyHashAndDate() async throws {
        let fixture = try StoreFixture(.sqlite)
        _ = try SQLiteAccountStore(url: fixture.fileURL)
        let queue = try DatabaseQueue(path: fixture.fileURL.path)
        defer { try? queue.close() }
        let (columns, primaryKey) = try await queue.read { db in
            (try db.columns(in: "account").map(\.name), try db.primaryKey("account").columns)
        }
        #expect(columns == ["key", "name", "passwordHash", "created"])
        #expect(primaryKey == ["key"])
    }

    @Test func theVersionBeforeRefusesAFileWithAccountsAndLeavesItAsItIs() async throws {
        let fixture = try StoreFixture(.sqlite)
        let accounts = try SQLiteAccountStore(url: fixture.fileURL)
        try await accounts.add(name: AccountName("ann"), passwordHash: "ann-1")
        // What the version before accounts knew: the migrations up to v3.
        var before = DatabaseMigrator()
        for identifier in ["v1", "v2", "v3", "v5-shared-lists", "v6-shared-step-heads", "v7-shared-step-rowid", "v8-calculators", "v9-meta-counts", "v10-earlier-rows"] { before.registerMigration(identifier) { _ in } }
        let bytes = try Data(contentsOf: fixture.fileURL)
        #expect(throws: StoreError.newerSchema(path: fixture.fileURL.path, unknownMigrations: ["v4", "v5"])) {
            try DatabaseFile.check(fixture.fileURL, migrator: before)
        }
        #expect(try Data(contentsOf: fixture.fileURL) == bytes)
    }
}

/// The accounts' migration in PostgreSQL.
@Suite("PostgreSQL accounts migration")
struct PostgresAccountsMigrationTests {
    @Test(.enabled(if: PostgresTestDatabase.url != nil, PostgresTestDatabase.missing))
    func theAccountsMigrationIsRecordedByName() async throws {
        let fixture = try StoreFixture(.postgres)
        _ = try await fixture.accounts()
        let database = try #require(fixture.postgresDatabase)
        var versions: [String] = []
        for try await version in try await database.database.client.query("SELECT version FROM rewind_schema ORDER BY version")
            .decode(String.self) {
            versions.append(version)
        }
        #expect(versions.contains("accounts"))
        #expect(versions.contains("sessions"))
        #expect(versions.contains("v1"))
    }
}

/// bcrypt through hummingbird-auth, off the cooperative threads.
@Suite("Password hashes")
struct PasswordHasherTests {
    @Test func theStandardHashIsBcryptAtCost12AndVerifies() async throws {
        let hash = try await PasswordHasher.standard.hash("correct horse battery")
        #expect(hash.hasPrefix("$2b$12$") || hash.hasPrefix("$2y$12$"), "\(hash)")
        #expect(hash.count == 60)
        #expect(await PasswordHasher.standard.verify("correct horse battery", against: hash))
        #expect(await !PasswordHasher.standard.verify("correct horse batterY", against: hash))
    }

    @Test func twoHashesOfOnePasswordDifferByTheirSaltAndBothVerify() async throws {
        let hasher = try #require(PasswordHasher(cost: 4))
        let first = try await hasher.hash("correct horse battery")
        let second = try await hasher.hash("correct horse battery")
        #expect(first != second)
        #expect(first.hasPrefix("$2b$04$"))
        #expect(await hasher.verify("correct horse battery", against: first))
        #expect(await hasher.verify("correct horse battery", against: second))
    }

    @Test func costsBcryptRefusesMakeNoHasher() {
        #expect(PasswordHasher(cost: 3) == nil)
        #expect(PasswordHasher(cost: 32) == nil)
        #expect(PasswordHasher(cost: 4)?.cost == 4)
    }

    @Test func aPasswordWithANULIsRefusedAndNeverMatches() async throws {
        let hasher = try #require(PasswordHasher(cost: 4))
        await #expect(throws: AccountError.self) { try await hasher.hash("abc\u{0}defghijkl") }
        let hash = try await hasher.hash("abc")
        #expect(await !hasher.verify("abc\u{0}defghijkl", against: hash))
        #expect(await !hasher.verify("abc", against: "not a bcrypt hash"))
    }
}
