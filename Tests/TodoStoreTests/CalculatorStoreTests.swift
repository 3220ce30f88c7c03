import Foundation
import GRDB
import Testing
import Todos
@testable import TodoStore
@testable import TodoStorePostgres

/// What every calculator store does: a calculator saved is read back as
/// saved (by a store opened afresh, as after a restart), each save changes
/// only what it names, a save made on an older version is refused, and
/// unused calculators are forgotten.
@Suite("Every calculator store", .dropsPostgresSchemas)
struct CalculatorStoreTests {
    /// A temporary folder or PostgreSQL schema, and the stores opened in it.
    final class Fixture: @unchecked Sendable {
        let shared: SharedStoreFixture
        private var memory: InMemoryCalculatorStore?
        private var postgres: PostgresTestDatabase?

        /// The PostgreSQL schema, once ``open()`` made it.
        var postgresDatabase: PostgresTodoDatabase? { postgres?.database }

        init(_ kind: SharedStoreKind) throws {
            shared = try SharedStoreFixture(kind)
        }

        /// Opens the store; a persistent kind opens the same file or
        /// database as a new process would.
        func open() async throws -> any CalculatorStore {
            switch shared.kind {
            case .memory:
                if let memory { return memory }
                let store = InMemoryCalculatorStore()
                memory = store
                return store
            case .sqlite:
                return try await SQLiteCalculatorStore.open(url: shared.fileURL)
            case .postgres:
                if postgres == nil { postgres = try await PostgresTestDatabase.make() }
                guard let postgres else { throw CancellationError() }
                return try await PostgresCalculatorStore.open(postgres.database)
            }
        }
    }

    /// The accounts of the same file or database as ``open()``'s
    /// calculators; `nil` for the memory kind, which keeps them apart.
    func accounts(_ fixture: Fixture) async throws -> (any AccountStore)? {
        switch fixture.shared.kind {
        case .memory:
            return nil
        case .sqlite:
            return try await SQLiteAccountStore.open(url: fixture.shared.fileURL)
        case .postgres:
            _ = try await fixture.open()
            guard let database = fixture.postgresDatabase else { throw CancellationError() }
            return try await PostgresAccountStore.open(database)
        }
    }

    /// Removing an account forgets its calculator with its steps, so that
    /// an account made later under the same name starts at 0; the others'
    /// and the browsers' calculators stay.
    @Test(arguments: SharedStoreKind.persistent)
    func removingAnAccountForgetsItsCalculatorOnly(_ kind: SharedStoreKind) async throws {
        let fixture = try Fixture(kind)
        let store = try await fixture.open()
        let accounts = try #require(try await accounts(fixture))
        let (ann, bob) = (try AccountName("ann"), try AccountName("bob"))
        for name in [ann, bob] { try await accounts.add(name: name, passwordHash: "hash") }
        let save = CalculatorSave(version: 0, base: #"{"base":0}"#, droppedSteps: 0, keptThrough: 0, appended: ["1", "2"], position: 2)
        for id in [AccountCalculator.id(of: ann), AccountCalculator.id(of: bob), Self.cookie] {
            _ = try #require(try await store.save(id, save, at: Self.day))
        }
        try await accounts.remove(name: AccountName("ANN"))
        #expect(try await fixture.open().calculator(AccountCalculator.id(of: ann)) == nil)
        #expect(try await store.calculator(AccountCalculator.id(of: bob))?.steps == ["1", "2"])
        #expect(try await store.calculator(Self.cookie)?.steps == ["1", "2"])
        // Made again, the account starts afresh: no step of the old one is left under its key.
        try await accounts.add(name: ann, passwordHash: "hash")
        let fresh = CalculatorSave(version: 0, base: #"{"base":0}"#, droppedSteps: 0, keptThrough: 0, appended: ["7"], position: 1)
        _ = try #require(try await store.save(AccountCalculator.id(of: ann), fresh, at: Self.day))
        #expect(try await fixture.open().calculator(AccountCalculator.id(of: ann))?.steps == ["7"])
    }

    static let cookie = "0123456789abcdef0123456789abcdef"
    static let other = "fedcba9876543210fedcba9876543210"
    static let day = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(arguments: SharedStoreKind.tested)
    func aNewCalculatorIsReadBackAsSavedAfterARestart(_ kind: SharedStoreKind) async throws {
        let fixture = try Fixture(kind)
        let store = try await fixture.open()
        #expect(try await store.calculator(Self.cookie) == nil)
        let first = CalculatorSave(version: 0, base: #"{"base":0}"#, droppedSteps: 0, keptThrough: 0, appended: ["1", "+", "2"], position: 3)
        let version = try #require(try await store.save(Self.cookie, first, at: Self.day))
        #expect(version > 0)
        let expected = StoredCalculator(base: #"{"base":0}"#, droppedSteps: 0, steps: ["1", "+", "2"], position: 3, version: version)
        #expect(try await store.calculator(Self.cookie) == expected)
        #expect(try await fixture.open().calculator(Self.cookie) == expected)
        #expect(try await store.calculator(Self.other) == nil)
        if kind == .sqlite {
            // Kept under the SHA-256 of the cookie, never the cookie itself.
            let keys = try await DatabaseQueue(path: fixture.shared.fileURL.path).read { db in
                try String.fetchAll(db, sql: "SELECT key FROM calculator")
            }
            #expect(keys == [SessionID.hexSHA256(of: Self.cookie)])
        }
    }

    @Test(arguments: SharedStoreKind.tested)
    func undoMovesThePositionAPressReplacesTheUndoneStepsAndDroppingMovesTheBase(_ kind: SharedStoreKind) async throws {
        let fixture = try Fixture(kind)
        let store = try await fixture.open()
        var version = try #require(try await store.save(
            Self.cookie, CalculatorSave(version: 0, base: "b0", droppedSteps: 0, keptThrough: 0, appended: ["1", "2", "+", "3"], position: 4),
            at: Self.day))
        let first = version
        // Undo twice.
        version = try #require(try await store.save(Self.cookie, CalculatorSave(version: version, droppedSteps: 0, position: 2), at: Self.day))
        #expect(try await fixture.open().calculator(Self.cookie)?.steps == ["1", "2", "+", "3"])
        #expect(try await fixture.open().calculator(Self.cookie)?.position == 2)
        // A press replaces the two undone steps.
        version = try #require(try await store.save(
            Self.cookie, CalculatorSave(version: version, droppedSteps: 0, keptThrough: 2, appended: ["x"], position: 3), at: Self.day))
        #expect(try await fixture.open().calculator(Self.cookie)
            == StoredCalculator(base: "b0", droppedSteps: 0, steps: ["1", "2", "x"], position: 3, version: first + 2))
        // Redo-less press after everything, then the two oldest dropped.
        version = try #require(try await store.save(
            Self.cookie, CalculatorSave(version: version, droppedSteps: 0, keptThrough: 3, appended: ["4", "="], position: 5), at: Self.day))
        version = try #require(try await store.save(
            Self.cookie, CalculatorSave(version: version, base: "b2", droppedSteps: 2, position: 5), at: Self.day))
        #expect(version == first + 4)
        #expect(try await fixture.open().calculator(Self.cookie)
            == StoredCalculator(base: "b2", droppedSteps: 2, steps: ["x", "4", "="], position: 5, version: first + 4))
        // A press after undoing back to the base, with steps dropped.
        version = try #require(try await store.save(Self.cookie, CalculatorSave(version: version, droppedSteps: 2, position: 2), at: Self.day))
        version = try #require(try await store.save(
            Self.cookie, CalculatorSave(version: version, droppedSteps: 2, keptThrough: 2, appended: ["7"], position: 3), at: Self.day))
        #expect(try await fixture.open().calculator(Self.cookie)
            == StoredCalculator(base: "b2", droppedSteps: 2, steps: ["7"], position: 3, version: first + 6))
    }

    @Test(arguments: SharedStoreKind.tested)
    func aSaveMadeOnAnOlderVersionIsRefusedAndChangesNothing(_ kind: SharedStoreKind) async throws {
        let fixture = try Fixture(kind)
        let store = try await fixture.open()
        let other = try await fixture.open()
        let first = CalculatorSave(version: 0, base: "b", droppedSteps: 0, keptThrough: 0, appended: ["1"], position: 1)
        let v1 = try #require(try await store.save(Self.cookie, first, at: Self.day))
        // Another instance's first save of the same calculator comes second.
        #expect(try await other.save(Self.cookie, CalculatorSave(version: 0, base: "c", droppedSteps: 0, keptThrough: 0, appended: ["9"], position: 1), at: Self.day) == nil)
        #expect(try await other.save(Self.cookie, CalculatorSave(version: v1, droppedSteps: 0, keptThrough: 1, appended: ["2"], position: 2), at: Self.day) == v1 + 1)
        #expect(try await store.save(Self.cookie, CalculatorSave(version: v1, droppedSteps: 0, keptThrough: 1, appended: ["5"], position: 2), at: Self.day) == nil)
        #expect(try await store.save(Self.cookie, CalculatorSave(version: v1, droppedSteps: 0, position: 0), at: Self.day) == nil)
        #expect(try await fixture.open().calculator(Self.cookie)
            == StoredCalculator(base: "b", droppedSteps: 0, steps: ["1", "2"], position: 2, version: v1 + 1))
        #expect(try await store.version(Self.cookie) == v1 + 1)
        #expect(try await store.version(Self.other) == nil)
    }

    @Test(arguments: SharedStoreKind.tested)
    func calculatorsUnusedSinceADateOrBeyondTheNewestOnesAreForgotten(_ kind: SharedStoreKind) async throws {
        let fixture = try Fixture(kind)
        let store = try await fixture.open()
        let cookies = (0..<5).map { String(repeating: String($0), count: 32) }
        var versions: [Int] = []
        for (n, cookie) in cookies.enumerated() {
            let save = CalculatorSave(version: 0, base: "b", droppedSteps: 0, keptThrough: 0, appended: ["\(n)"], position: 1)
            versions.append(try #require(try await store.save(cookie, save, at: Self.day.addingTimeInterval(Double(n) * 86_400))))
        }
        // Used again on the last day: no longer the oldest.
        #expect(try await store.save(cookies[0], CalculatorSave(version: versions[0], droppedSteps: 0, position: 0), at: Self.day.addingTimeInterval(5 * 86_400)) == versions[0] + 1)
        #expect(try await store.forgetCalculators(unusedSince: Self.day.addingTimeInterval(2.5 * 86_400), keepingAtMost: 100) == 2)
        #expect(try await store.calculator(cookies[1]) == nil)
        #expect(try await store.calculator(cookies[2]) == nil)
        #expect(try await store.forgetCalculators(unusedSince: Self.day, keepingAtMost: 2) == 1)
        let kept = try await fixture.open()
        #expect(try await kept.calculator(cookies[3]) == nil)
        #expect(try await kept.calculator(cookies[4])?.steps == ["4"])
        #expect(try await kept.calculator(cookies[0])?.position == 0)
        #expect(try await store.forgetCalculators(unusedSince: Self.day, keepingAtMost: 2) == 0)
        // Made again under a forgotten cookie, a calculator does not count through the old one's versions.
        let again = CalculatorSave(version: 0, base: "b", droppedSteps: 0, keptThrough: 0, appended: ["5"], position: 1)
        let made = try #require(try await store.save(cookies[3], again, at: Self.day.addingTimeInterval(6 * 86_400)))
        #expect(made != versions[3])
        #expect(try await kept.calculator(cookies[3]) == StoredCalculator(base: "b", droppedSteps: 0, steps: ["5"], position: 1, version: made))
    }

    @Test func aCalculatorWithAStepMissingIsDamageNamedAndLeftAsItIs() async throws {
        let fixture = try Fixture(.sqlite)
        let store = try await fixture.open()
        let save = CalculatorSave(version: 0, base: "b", droppedSteps: 0, keptThrough: 0, appended: ["1", "2", "3"], position: 3)
        #expect(try await store.save(Self.cookie, save, at: Self.day) != nil)
        try await DatabaseQueue(path: fixture.shared.fileURL.path).write { db in
            try db.execute(sql: "DELETE FROM calculator_step WHERE n = 2")
        }
        let path = fixture.shared.fileURL.path
        await #expect(throws: StoreError.corrupt(path: path, detail: "a calculator’s step 2 is missing (found step 3)")) {
            try await store.calculator(Self.cookie)
        }
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO calculator_step (calculator, n, label) VALUES (?, 2, '2')", arguments: [SessionID.hexSHA256(of: Self.cookie)])
            try db.execute(sql: "UPDATE calculator SET position = 9")
        }
        await #expect(throws: StoreError.corrupt(path: path, detail: "a calculator’s position 9 is outside its steps 0…3")) {
            try await store.calculator(Self.cookie)
        }
    }
}
