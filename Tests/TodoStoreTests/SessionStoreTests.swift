import Foundation
import GRDB
import Testing
import Todos
@testable import TodoStore

/// What every session store does: a session is found by its id until it
/// ends, is signed out or expires; only the hash of the id is kept; and
/// removing an account or changing its password ends its sessions.
@Suite("Every session store")
struct SessionStoreTests {
    private let start = Date(timeIntervalSince1970: 1_795_000_000)

    @Test(arguments: StoreKind.keepingAccounts)
    func aBegunSessionIsFoundByItsIdWithTheAccountAsTyped(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let sessions = try await fixture.accounts()
        try await sessions.add(name: AccountName("Ann"), passwordHash: "hash-of-ann")
        let id = SessionID.random()
        let begun = try await sessions.beginSession(id, for: AccountName("ann"), at: start, lifetime: 3_600)
        #expect(begun == Session(account: try AccountName("Ann"), created: start, expires: start.addingTimeInterval(3_600)))
        let found = try await fixture.accounts().session(id, at: start.addingTimeInterval(10))
        #expect(found == begun)
        #expect(found?.account.text == "Ann")
        #expect(try await sessions.session(SessionID.random(), at: start) == nil)
    }

    @Test(arguments: StoreKind.keepingAccounts)
    func aSessionIsRefusedFromTheMomentItExpires(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let sessions = try await fixture.accounts()
        try await sessions.add(name: AccountName("ann"), passwordHash: "hash-of-ann")
        let id = SessionID.random()
        try await sessions.beginSession(id, for: AccountName("ann"), at: start, lifetime: 60)
        #expect(try await sessions.session(id, at: start.addingTimeInterval(59)) != nil)
        #expect(try await sessions.session(id, at: start.addingTimeInterval(60)) == nil)
        #expect(try await sessions.session(id, at: start.addingTimeInterval(86_400)) == nil)
    }

    @Test(arguments: StoreKind.keepingAccounts)
    func anEndedSessionIsRefusedAndTheOthersStay(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let sessions = try await fixture.accounts()
        try await sessions.add(name: AccountName("ann"), passwordHash: "hash-of-ann")
        let (first, second) = (SessionID.random(), SessionID.random())
        try await sessions.beginSession(first, for: AccountName("ann"), at: start)
        try await sessions.beginSession(second, for: AccountName("ann"), at: start)
        try await sessions.endSession(first)
        #expect(try await fixture.accounts().session(first, at: start) == nil)
        #expect(try await fixture.accounts().session(second, at: start)?.account.text == "ann")
        // Ending it again, or an unknown one, changes nothing.
        try await sessions.endSession(first)
        try await sessions.endSession(SessionID.random())
        #expect(try await sessions.session(second, at: start) != nil)
    }

    @Test(arguments: StoreKind.keepingAccounts)
    func aSessionOfAnUnknownAccountIsRefusedAndNothingKept(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let sessions = try await fixture.accounts()
        let id = SessionID.random()
        await #expect(throws: AccountStoreError.noSuchAccount("carol")) {
            try await sessions.beginSession(id, for: AccountName("carol"), at: start)
        }
        try await sessions.add(name: AccountName("carol"), passwordHash: "hash-of-carol")
        #expect(try await sessions.session(id, at: start) == nil)
    }

    @Test(arguments: StoreKind.keepingAccounts)
    func removingAnAccountEndsItsSessionsOnly(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let sessions = try await fixture.accounts()
        try await sessions.add(name: AccountName("ann"), passwordHash: "hash-of-ann")
        try await sessions.add(name: AccountName("bob"), passwordHash: "hash-of-bob")
        let (ann, bob) = (SessionID.random(), SessionID.random())
        try await sessions.beginSession(ann, for: AccountName("ann"), at: start)
        try await sessions.beginSession(bob, for: AccountName("bob"), at: start)
        try await sessions.remove(name: AccountName("ANN"))
        #expect(try await sessions.session(ann, at: start) == nil)
        #expect(try await sessions.session(bob, at: start) != nil)
        // An account made again under the name does not get the old session back.
        try await sessions.add(name: AccountName("ann"), passwordHash: "hash-of-ann-2")
        #expect(try await fixture.accounts().session(ann, at: start) == nil)
    }

    @Test(arguments: StoreKind.keepingAccounts)
    func aNewPasswordEndsTheAccountsSessionsOnly(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let sessions = try await fixture.accounts()
        try await sessions.add(name: AccountName("ann"), passwordHash: "ann-1")
        try await sessions.add(name: AccountName("bob"), passwordHash: "bob-1")
        let (ann, bob) = (SessionID.random(), SessionID.random())
        try await sessions.beginSession(ann, for: AccountName("ann"), at: start)
        try await sessions.beginSession(bob, for: AccountName("bob"), at: start)
        try await sessions.setPasswordHash(name: AccountName("ann"), "ann-2")
        #expect(try await fixture.accounts().session(ann, at: start) == nil)
        #expect(try await fixture.accounts().session(bob, at: start) != nil)
        #expect(try await sessions.endSessions(of: AccountName("bob")) == 1)
        #expect(try await sessions.session(bob, at: start) == nil)
    }
}

/// The id of a session and what is kept of it.
@Suite("Session ids")
struct SessionIDTests {
    @Test func anIdIs43Base64URLCharactersAndEveryOneIsNew() {
        let ids = (0..<100).map { _ in SessionID.random() }
        #expect(Set(ids).count == 100)
        for id in ids {
            #expect(id.text.count == SessionID.length)
            #expect(SessionID(cookie: id.text) == id)
        }
    }

    @Test func aCookieThatIsNotAnIdIsRefused() {
        #expect(SessionID(cookie: "") == nil)
        #expect(SessionID(cookie: String(repeating: "a", count: 42)) == nil)
        #expect(SessionID(cookie: String(repeating: "a", count: 44)) == nil)
        #expect(SessionID(cookie: String(repeating: "a", count: 42) + "=") == nil)
        #expect(SessionID(cookie: String(repeating: "é", count: 43)) == nil)
        #expect(SessionID(cookie: String(repeating: "a", count: 42) + "-") != nil)
    }

    @Test func theHashIsTheSHA256OfTheIdInHexadecimal() throws {
        let id = try #require(SessionID(cookie: String(repeating: "a", count: 43)))
        // printf %s aaaa…(43) | sha256sum
        #expect(id.hash == "66d34fba71f8f450f7e45598853e53bfc23bbd129027cbb131a2f4ffd7878cd0")
        #expect(id.hash.allSatisfy { "0123456789abcdef".contains($0) })
        // printf %s rewind-csrf:aaaa…(43) | openssl dgst -sha256 -binary | basenc --base64url
        #expect(id.derivedToken(purpose: "csrf") == "hnKUfuiB1O-01TVy99M_9Iuh3i6casZLxuilOIn3xoY")
        #expect(id.derivedToken(purpose: "csrf") != SessionID.random().derivedToken(purpose: "csrf"))
        #expect(id.derivedToken(purpose: "csrf") == SessionID(cookie: id.text)?.derivedToken(purpose: "csrf"))
    }

    @Test func base64URLIsFoundationsBase64WithTheURLAlphabetAndNoPadding() {
        var generator = SystemRandomNumberGenerator()
        for count in 0...40 {
            let bytes = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(SessionID.base64URL(bytes) == expected, "\(count) bytes")
        }
    }

    @Test func theSQLiteFileKeepsOnlyTheHashOfTheId() async throws {
        let fixture = try StoreFixture(.sqlite)
        let sessions = try await SQLiteAccountStore.open(url: fixture.fileURL)
        try await sessions.add(name: AccountName("ann"), passwordHash: "hash-of-ann")
        let id = SessionID.random()
        try await sessions.beginSession(id, for: AccountName("ann"), at: Date())
        let bytes = try Data(contentsOf: fixture.fileURL) + ((try? Data(contentsOf: URL(fileURLWithPath: fixture.fileURL.path + "-wal"))) ?? Data())
        #expect(bytes.range(of: Data(id.text.utf8)) == nil)
        let queue = try DatabaseQueue(path: fixture.fileURL.path)
        defer { try? queue.close() }
        let hashes = try await queue.read { db in try String.fetchAll(db, sql: "SELECT idHash FROM session") }
        #expect(hashes == [id.hash])
    }
}

/// The sessions' table in the SQLite file: schema v5.
@Suite("SQLite sessions migration")
struct SQLiteSessionsMigrationTests {
    @Test func aFileOfSchemaV4GetsTheSessionsTableAndKeepsItsAccounts() async throws {
        let fixture = try StoreFixture(.sqlite)
        let accounts = try SQLiteAccountStore(url: fixture.fileURL)
        try await accounts.add(name: AccountName("ann"), passwordHash: "ann-1")
        let queue = try DatabaseQueue(path: fixture.fileURL.path)
        try await queue.write { db in
            try db.execute(sql: "DROP TABLE session; DELETE FROM grdb_migrations WHERE identifier = 'v5'")
        }
        try queue.close()
        let sessions = try await SQLiteAccountStore.open(url: fixture.fileURL)
        let id = SessionID.random()
        try await sessions.beginSession(id, for: AccountName("ann"), at: Date())
        #expect(try await sessions.session(id, at: Date())?.account.text == "ann")
        #expect(try await sessions.passwordHash(for: AccountName("ann")) == "ann-1")
    }

    @Test func theVersionBeforeRefusesAFileWithSessionsAndLeavesItAsItIs() async throws {
        let fixture = try StoreFixture(.sqlite)
        _ = try SQLiteAccountStore(url: fixture.fileURL)
        var before = DatabaseMigrator()
        for identifier in ["v1", "v2", "v3", "v4"] { before.registerMigration(identifier) { _ in } }
        let bytes = try Data(contentsOf: fixture.fileURL)
        #expect(throws: StoreError.newerSchema(path: fixture.fileURL.path, unknownMigrations: ["v5", "v5-shared-lists", "v6-shared-step-heads", "v7-shared-step-rowid", "v8-calculators", "v9-meta-counts", "v10-earlier-rows"])) {
            try DatabaseFile.check(fixture.fileURL, migrator: before)
        }
        #expect(try Data(contentsOf: fixture.fileURL) == bytes)
    }
}
