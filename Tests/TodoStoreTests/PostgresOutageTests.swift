import Foundation
import PostgresNIO
import Testing
import TestSupport
import Todos
import TodoStore
@testable import TodoStorePostgres

/// A server whose connections end (a restart, an administrator) or that
/// cannot be reached: the next operation after it is back succeeds, and
/// one made while it cannot be reached fails with a clear error within the
/// connect timeout instead of waiting for the pool's circuit breaker.
@Suite("PostgreSQL store: connections that end", .dropsPostgresSchemas, .enabled(if: PostgresTestDatabase.url != nil, PostgresTestDatabase.missing))
struct PostgresOutageTests {
    /// A fixture on PostgreSQL with one item, “Before”: a store of it
    /// (`reader`), and a second store over the same database (`store`)
    /// with a pool of its own (`database`) whose connections the server
    /// can tell apart by their `application_name` (`name`). Cancel
    /// `running` when done.
    ///
    /// `behindAProxy`: the second store reaches the server through a
    /// ``FreezableProxy`` (stop it when done), which a test can freeze as
    /// a server whose machine stopped, or a network that drops everything;
    /// its queries then ask whether the server answers after one second
    /// without an answer, and `connectTimeout` is its connect timeout.
    struct TwoStores {
        let fixture: StoreFixture
        let reader: any AppStore
        let shared: PostgresTestDatabase
        let database: PostgresTodoDatabase
        let store: PostgresStore
        let name: String
        let proxy: FreezableProxy?
        let running: Task<Void, Never>

        init(behindAProxy: Bool = false, connectTimeout: Duration = .seconds(5)) async throws {
            fixture = try StoreFixture(.postgres)
            reader = try await fixture.open()
            shared = try #require(fixture.postgresDatabase)
            name = "rewind test \(UUID().uuidString.prefix(8))"
            let parameters = [("search_path", shared.schema), ("application_name", name)]
            if behindAProxy {
                let given = shared.database.url
                try #require(given.socketPath == nil, "the test server is reached over TCP")
                let proxy = try FreezableProxy(forwardingTo: given.port)
                let password = given.password.map { ":\($0)" } ?? ""
                do {
                    database = try PostgresTodoDatabase(
                        url: try DatabaseURL("postgres://\(given.username)\(password)@127.0.0.1:\(proxy.port)/\(given.database)"),
                        connectTimeout: connectTimeout, answerPatience: .seconds(1), extraStartupParameters: parameters,
                        maximumConnections: 2, notificationChannel: shared.channel)
                } catch {
                    proxy.stop()
                    throw error
                }
                self.proxy = proxy
            } else {
                database = try PostgresTodoDatabase(
                    url: shared.database.url, extraStartupParameters: parameters, maximumConnections: 4,
                    notificationChannel: shared.channel)
                proxy = nil
            }
            let database = database
            running = Task { await database.run() }
            do {
                store = try await PostgresStore.open(database, now: fixture.clock.now)
                try await store.change(.add(try fixture.item("Before")))
            } catch {
                running.cancel()
                proxy?.stop()
                throw error
            }
        }
    }

    @Test func aChangeAfterTheServerEndedEveryConnectionOfThePoolSucceeds() async throws {
        let stores = try await TwoStores()
        defer { stores.running.cancel() }
        let (fixture, first, shared, second, name) = (stores.fixture, stores.reader, stores.shared, stores.store, stores.name)
        let ended = try await shared.database.client.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(name)")
        var count = 0
        for try await _ in ended { count += 1 }
        #expect(count >= 1)
        try await waitUntil("the server ended the connections") {
            var left = 0
            for try await _ in try await shared.database.client.query(
                "SELECT pid FROM pg_stat_activity WHERE application_name = \(name)") { left += 1 }
            return left == 0
        }
        // The pool may still lend connections the server ended: the change
        // is made again on a fresh one.
        try await second.change(.add(try fixture.item("After")))
        #expect(try await second.read { $0.todos.items.map(\.title) } == ["Before", "After"])
        #expect(try await first.read { $0.todos.items.map(\.title) } == ["Before", "After"])
    }

    /// A batch of adds whose connection the server ends while the statement
    /// waits (here for the list's row, held by another connection) did not
    /// commit: it is written again on a fresh connection, once.
    @Test func aBatchOfAddsWhoseConnectionEndsBeforeTheAnswerIsWrittenAgainOnce() async throws {
        let stores = try await TwoStores()
        defer { stores.running.cancel() }
        let (fixture, reader, shared, store, name) = (stores.fixture, stores.reader, stores.shared, stores.store, stores.name)

        let after = try fixture.item("After")
        try await Self.endingItsConnectionWhileItWaits(shared, name: name) { try await store.change(.add(after)) }
        #expect(try await reader.read { $0.todos.items.map(\.title) } == ["Before", "After"], "the add is saved once")
        #expect(try await store.read { $0.todos.items.map(\.title) } == ["Before", "After"])
        #expect(try await store.history().steps.count == 2)
    }

    /// The same for a change other than an add (one statement that checks
    /// the list's head): seen not to have committed, it is made again.
    @Test func anEditWhoseConnectionEndsBeforeTheAnswerIsMadeOnce() async throws {
        let stores = try await TwoStores()
        defer { stores.running.cancel() }
        let (fixture, reader, shared, store, name) = (stores.fixture, stores.reader, stores.shared, stores.store, stores.name)
        let id = try #require(try await store.read { $0.todos.items.first?.id })
        let now = fixture.clock.now()
        try await Self.endingItsConnectionWhileItWaits(shared, name: name) {
            try await store.change(.update(id, [.title(to: "Renamed")], at: now))
        }
        #expect(try await reader.read { $0.todos.items.map(\.title) } == ["Renamed"])
        #expect(try await reader.history().steps.map(\.name) == ["Add “Before”", "Rename “Before” to “Renamed”"], "the edit is saved once")
    }

    /// An undo (a transaction) whose connection ends while it waits for
    /// the list's row had not reached its COMMIT: it is made again.
    @Test func anUndoWhoseConnectionEndsBeforeTheAnswerIsMadeOnce() async throws {
        let stores = try await TwoStores()
        defer { stores.running.cancel() }
        let (fixture, reader, shared, store, name) = (stores.fixture, stores.reader, stores.shared, stores.store, stores.name)
        try await store.change(.add(try fixture.item("After")))
        let undone = try await Self.endingItsConnectionWhileItWaits(shared, name: name) { try await store.undo() }
        #expect(undone == "Add “After”")
        #expect(try await reader.read { $0.todos.items.map(\.title) } == ["Before"], "one step undone, not two")
        #expect(try await reader.history().position == 1)
        #expect(try await store.redo() == "Add “After”")
    }

    /// A change to a shared list whose connection ends while it waits for
    /// the list's row had not committed: it is made again, once.
    @Test func aSharedListChangeWhoseConnectionEndsBeforeTheAnswerIsMadeOnce() async throws {
        let shared = try await PostgresTestDatabase.make()
        let name = "rewind test \(UUID().uuidString.prefix(8))"
        let database = try PostgresTodoDatabase(
            url: shared.database.url, extraStartupParameters: [("search_path", shared.schema), ("application_name", name)],
            maximumConnections: 4, notificationChannel: shared.channel)
        let running = Task { await database.run() }
        defer { running.cancel() }
        let store = try await PostgresSharedListStore.open(database)
        let ann = try AccountName("ann")
        let list = try await store.create(name: "Groceries", owner: ann).id
        let milk = try TodoItem(id: UUID(), title: "Milk", created: Date(timeIntervalSince1970: 0))

        let (holder, release) = await PostgresRoundTripTests.holdingTheListsRow(
            shared, locking: "SELECT id FROM rewind_shared_list WHERE id = \(list) FOR UPDATE")
        let adding = Task { try await store.perform([.add(milk)], named: "Add “Milk”", coalescingKey: nil, on: list, by: ann) }
        try await Self.endTheConnectionWaitingForALock(named: name, shared)
        release.yield()
        try await holder.value
        _ = try await adding.value
        let reader = try await PostgresSharedListStore.open(shared.database)
        #expect(try await reader.items(of: list, as: ann).list.items.map(\.title) == ["Milk"])
        #expect(try await reader.history(of: list, as: ann, before: nil, limit: 10).count == 1, "the add is saved once")
    }

    /// A change to a shared list whose connection ends after its `COMMIT`
    /// was sent: the server is asked what became of the transaction, and
    /// one that did not commit is made again, once. The server ends the
    /// connection from a deferred trigger, which runs within the `COMMIT`
    /// (the first time only: a sequence counts outside transactions).
    @Test func aSharedListChangeWhoseConnectionEndsInItsCommitIsMadeOnce() async throws {
        let shared = try await PostgresTestDatabase.make()
        let store = try await PostgresSharedListStore.open(shared.database)
        let ann = try AccountName("ann")
        let list = try await store.create(name: "Groceries", owner: ann).id
        try await Self.endingTheFirstCommitThatAppendsTo("rewind_shared_step", shared)
        let milk = try TodoItem(id: UUID(), title: "Milk", created: Date(timeIntervalSince1970: 0))

        _ = try await store.perform([.add(milk)], named: "Add “Milk”", coalescingKey: nil, on: list, by: ann)

        #expect(try await Self.commitsEnded(shared) == 2, "the connection ended in the first COMMIT, and the change was made again")
        let reader = try await PostgresSharedListStore.open(shared.database)
        #expect(try await reader.items(of: list, as: ann).list.items.map(\.title) == ["Milk"])
        #expect(try await reader.history(of: list, as: ann, before: nil, limit: 10).count == 1, "the add is saved once")
    }

    /// The same for a change of a list the store holds, saved in one
    /// statement that commits on its own: the server ends the connection
    /// within that statement's commit; the store asks whether the row was
    /// saved, and makes the change again, once, in a transaction.
    @Test func aSharedListChangeSavedInOneStatementWhoseConnectionEndsIsMadeOnce() async throws {
        let shared = try await PostgresTestDatabase.make()
        let store = try await PostgresSharedListStore.open(shared.database)
        let ann = try AccountName("ann")
        let list = try await store.create(name: "Groceries", owner: ann).id
        let made = Date(timeIntervalSince1970: 0)
        let (milk, bread) = (try TodoItem(id: UUID(), title: "Milk", created: made), try TodoItem(id: UUID(), title: "Bread", created: made))
        _ = try await store.perform([.add(milk)], named: "Add “Milk”", coalescingKey: nil, on: list, by: ann)
        try await Self.endingTheFirstCommitThatAppendsTo("rewind_shared_step", shared)

        _ = try await store.perform([.add(bread)], named: "Add “Bread”", coalescingKey: nil, on: list, by: ann)

        #expect(try await Self.commitsEnded(shared) == 2, "the connection ended in the first commit, and the change was made again")
        #expect(await store.rowsTakenBack == 1, "the one-statement save was taken back")
        let reader = try await PostgresSharedListStore.open(shared.database)
        #expect(try await reader.items(of: list, as: ann).list.items.map(\.title) == ["Milk", "Bread"])
        #expect(try await reader.history(of: list, as: ann, before: nil, limit: 10).map(\.seq) == [2, 1], "the add is saved once")
        #expect(try await store.items(of: list, as: ann).list.items.map(\.title) == ["Milk", "Bread"])
    }

    /// The same for the making of a shared list.
    @Test func aSharedListWhoseConnectionEndsInTheCommitThatMakesItIsMadeOnce() async throws {
        let shared = try await PostgresTestDatabase.make()
        let store = try await PostgresSharedListStore.open(shared.database)
        let ann = try AccountName("ann")
        try await Self.endingTheFirstCommitThatAppendsTo("rewind_shared_list", shared)

        let made = try await store.create(name: "Groceries", owner: ann)

        #expect(try await Self.commitsEnded(shared) == 2, "the connection ended in the first COMMIT, and the list was made again")
        let reader = try await PostgresSharedListStore.open(shared.database)
        #expect(try await reader.lists(of: ann).map(\.id) == [made.id], "the list is made once")
        #expect(try await reader.items(of: made.id, as: ann).list.items.isEmpty)
    }

    /// A batch written in one statement that commits on its own (adds,
    /// or another change of the list the store holds) whose connection the
    /// server ends within that commit: such a statement's answer comes
    /// before its commit, so the store makes the batch through a procedure
    /// that commits before it answers; here it finds the rows not saved
    /// and writes them again, once.
    @Test(arguments: [true, false])
    func aBatchWrittenInOneStatementWhoseConnectionEndsInItsCommitIsMadeOnce(adds: Bool) async throws {
        let stores = try await TwoStores()
        defer { stores.running.cancel() }
        let (fixture, reader, shared, store) = (stores.fixture, stores.reader, stores.shared, stores.store)
        let before = try #require(try await store.read { $0.todos.items.first })
        try await Self.endingTheFirstCommitThatAppendsTo("rewind_step", shared)

        if adds {
            try await store.change(.add(try fixture.item("After")))
        } else {
            try await store.change(.todos(.update(before.id, [.title(to: "Renamed")], at: fixture.clock.now())))
        }

        #expect(try await Self.commitsEnded(shared) == 2, "the connection ended in the first commit, and the batch was written again")
        #expect(try await reader.read { $0.todos.items.map(\.title) } == (adds ? ["Before", "After"] : ["Renamed"]))
        #expect(try await reader.history().position == 2, "one step, not two")
    }

    /// The same for an undo of the list (a transaction of its own).
    @Test func anUndoWhoseConnectionEndsInItsCommitIsMadeOnce() async throws {
        let stores = try await TwoStores()
        defer { stores.running.cancel() }
        let (fixture, reader, shared, store) = (stores.fixture, stores.reader, stores.shared, stores.store)
        try await store.change(.add(try fixture.item("After")))
        try await Self.endingTheFirstCommitThatAppendsTo("rewind_step", shared)

        #expect(try await store.undo() == "Add “After”")

        #expect(try await Self.commitsEnded(shared) == 2, "the connection ended in the first COMMIT, and the undo was made again")
        #expect(try await reader.read { $0.todos.items.map(\.title) } == ["Before"])
        #expect(try await reader.history().position == 1, "one step undone, not two")
        #expect(try await store.redo() == "Add “After”")
    }

    /// A session check and a sign-in of team mode whose connection the
    /// server ends while they wait (here for a lock on the sessions, as a
    /// restart would end them anywhere) are made again on a fresh
    /// connection, once: a restart of the server signs nobody out.
    @Test func aSessionCheckOrASignInWhoseConnectionEndsIsMadeAgainOnAFreshOne() async throws {
        let stores = try await TwoStores()
        defer { stores.running.cancel() }
        let (fixture, shared, name) = (stores.fixture, stores.shared, stores.name)
        let accounts = try await PostgresAccountStore.open(stores.store.database, now: fixture.clock.now)
        let ann = try AccountName("ann")
        try await accounts.add(name: ann, passwordHash: "hash of ann")
        let now = fixture.clock.now()
        let first = SessionID.random()
        try await accounts.beginSession(first, for: ann, at: now, lifetime: 3600)
        let sessions: PostgresQuery = "LOCK TABLE rewind_session IN ACCESS EXCLUSIVE MODE"

        let found = try await Self.endingItsConnectionWhileItWaits(shared, name: name, locking: sessions) {
            try await accounts.session(first, at: now)
        }
        #expect(found?.account == ann)

        let second = SessionID.random()
        let begun = try await Self.endingItsConnectionWhileItWaits(shared, name: name, locking: sessions) {
            try await accounts.beginSession(second, for: ann, at: now, lifetime: 3600)
        }
        #expect(begun.account == ann)
        #expect(try await accounts.session(second, at: now)?.account == ann)
        #expect(try await accounts.session(first, at: now)?.account == ann)
    }

    /// An account whose connection the server ends while it waits is made
    /// again, once; and an add that finds the very row it inserts (the
    /// same salted hash at the same moment: the row of an earlier try whose
    /// answer a restart lost) is taken as made, while another hash for the
    /// name is refused.
    @Test func anAccountWhoseConnectionEndsBeforeTheAnswerIsMadeOnce() async throws {
        let stores = try await TwoStores()
        defer { stores.running.cancel() }
        let (shared, name) = (stores.shared, stores.name)
        let moment = Date(timeIntervalSince1970: 1_795_000_000)
        let accounts = try await PostgresAccountStore.open(stores.store.database, now: { moment })
        let bob = try AccountName("bob")
        try await Self.endingItsConnectionWhileItWaits(
            shared, name: name, locking: "LOCK TABLE rewind_account IN ACCESS EXCLUSIVE MODE"
        ) { try await accounts.add(name: bob, passwordHash: "hash of bob") }
        #expect(try await accounts.list().map(\.name) == [bob])

        try await accounts.add(name: bob, passwordHash: "hash of bob")
        await #expect(throws: AccountStoreError.nameTaken(existing: "bob")) {
            try await accounts.add(name: bob, passwordHash: "another hash")
        }
        #expect(try await accounts.list().map(\.name) == [bob])
    }

    /// Makes the server end the connection of the first transaction that
    /// appends a row to `table`, within its `COMMIT` (a deferred trigger;
    /// the transaction is then aborted), as a restart at that moment would.
    /// A sequence counts the transactions, outside them (``commitsEnded(_:)``).
    static func endingTheFirstCommitThatAppendsTo(_ table: String, _ shared: PostgresTestDatabase) async throws {
        for statement in [
            "CREATE SEQUENCE ending_once",
            """
            CREATE FUNCTION end_in_commit() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF nextval('ending_once') = 1 THEN
                    PERFORM pg_terminate_backend(pg_backend_pid());
                    PERFORM pg_sleep(1);
                END IF;
                RETURN NULL;
            END $$
            """,
            """
            CREATE CONSTRAINT TRIGGER end_in_commit AFTER INSERT ON \(table)
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION end_in_commit()
            """,
        ] {
            try await shared.database.client.query(PostgresQuery(unsafeSQL: statement))
        }
    }

    /// How many transactions reached the trigger of
    /// ``endingTheFirstCommitThatAppendsTo(_:_:)``.
    static func commitsEnded(_ shared: PostgresTestDatabase) async throws -> Int64 {
        var count: Int64 = 0
        for try await value in try await shared.database.client.query("SELECT last_value FROM ending_once").decode(Int64.self) {
            count = value
        }
        return count
    }

    /// What became of a transaction whose connection ended: asked of the
    /// server by its number when it had sent its COMMIT, else not committed.
    @Test func theFateOfATransactionIsAskedOfTheServer() async throws {
        let stores = try await TwoStores()
        defer { stores.running.cancel() }
        let shared = stores.shared
        func transaction(committing: Bool) async throws -> Int64 {
            try await shared.database.withDirectConnection { connection, logger in
                try await connection.query("BEGIN", logger: logger)
                var number: Int64 = 0
                for try await value in try await connection.query("SELECT txid_current()", logger: logger).decode(Int64.self) {
                    number = value
                }
                try await connection.query(committing ? "COMMIT" : "ROLLBACK", logger: logger)
                return number
            }
        }
        let committed = try await transaction(committing: true)
        let aborted = try await transaction(committing: false)
        let database = shared.database
        let logger = Logger(label: "test")
        #expect(await database.fate(of: committed, committing: true, logger: logger) == .committed)
        #expect(await database.fate(of: aborted, committing: true, logger: logger) == .notCommitted)
        #expect(
            await database.fate(of: committed, committing: false, logger: logger) == .notCommitted,
            "no COMMIT sent: rolled back by the server")
        #expect(await database.fate(of: nil, committing: false, logger: logger) == .notCommitted)
        #expect(
            await database.fate(of: nil, committing: true, logger: logger) == .unknown("its number was not learnt"),
            "a COMMIT sent, its number not learnt")
    }

    /// A transaction whose backend is still under way when its fate is
    /// asked (a busy server, rolling back or committing slowly) is asked
    /// about again until the server knows.
    @Test func aTransactionStillUnderWayWhenAskedIsAskedAboutAgainUntilTheServerKnows() async throws {
        let shared = try await PostgresTestDatabase.make()
        let (numbers, number) = AsyncStream.makeStream(of: Int64.self)
        let holding = Task {
            try await shared.database.withDirectConnection { connection, logger in
                try await connection.query("BEGIN", logger: logger)
                for try await value in try await connection.query("SELECT txid_current()", logger: logger).decode(Int64.self) {
                    number.yield(value)
                }
                try await Task.sleep(for: .seconds(3))
                try await connection.query("COMMIT", logger: logger)
            }
        }
        var waiting = numbers.makeAsyncIterator()
        let transaction = try #require(await waiting.next())
        #expect(await shared.database.fate(of: transaction, committing: true, logger: Logger(label: "test")) == .committed)
        try await holding.value
    }

    /// A transaction whose connection ended in its `COMMIT`, and whose
    /// number no statement noted, fails saying that whether it was saved
    /// is not known, and not as a mere end of the connection.
    @Test func aCommitWhoseFateCannotBeLearntFailsSayingSo() async throws {
        let shared = try await PostgresTestDatabase.make()
        try await shared.database.client.query("CREATE TABLE noted (n int)")
        try await Self.endingTheFirstCommitThatAppendsTo("noted", shared)
        let error = await #expect(throws: CommitOutcomeUnknown.self) {
            try await shared.database.retriedTransaction(logger: Logger(label: "test")) { connection in
                try await connection.query("INSERT INTO noted VALUES (1)", logger: Logger(label: "test"))
            }
        }
        // How the connection ended is told as postgres-nio or the wait
        // watch saw it first.
        let description = error?.description ?? ""
        #expect(description.hasPrefix("the connection to the server ended as the change was being committed ("))
        #expect(description.hasSuffix("), and whether it was saved is not known (its number was not learnt); look before making it again"))
    }

    /// Runs `change` on the instance whose connections are named `name`
    /// while another connection holds the list's row (or what `locking`
    /// locks); the server ends the change's connection as it waits for it
    /// (as a restart would), then it is let go. Answers what the change
    /// answered.
    @discardableResult
    static func endingItsConnectionWhileItWaits<Answer: Sendable>(
        _ shared: PostgresTestDatabase, name: String, locking: PostgresQuery = "SELECT id FROM rewind_list FOR UPDATE",
        _ change: @escaping @Sendable () async throws -> Answer
    ) async throws -> Answer {
        let (locker, release) = await PostgresRoundTripTests.holdingTheListsRow(shared, locking: locking)
        let changing = Task { try await change() }
        try await endTheConnectionWaitingForALock(named: name, shared)
        release.yield()
        try await locker.value
        return try await changing.value
    }

    /// Ends, as the server's administrator would, the connection of the
    /// pool named `name` that waits for a lock, once there is one.
    static func endTheConnectionWaitingForALock(named name: String, _ shared: PostgresTestDatabase) async throws {
        var ended = 0
        try await waitUntil("a connection waiting for a lock, then ended") {
            let rows = try await shared.database.client.query("""
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE application_name = \(name) AND wait_event_type = 'Lock'
                """)
            for try await _ in rows { ended += 1 }
            return ended > 0
        }
    }

    /// Another session that holds the list's row in a transaction it
    /// leaves open (a `psql` with `BEGIN; SELECT … FOR UPDATE`): a change,
    /// an undo and an add each fail after the lock timeout, saying so,
    /// instead of waiting as long as that session stays open; nothing is
    /// changed, and once the row is free the next change is saved.
    @Test(.timeLimit(.minutes(1)))
    func changesThatWaitForTheListPastTheLockTimeoutFailSayingSoAndChangeNothing() async throws {
        let fixture = try StoreFixture(.postgres)
        let reader = try await fixture.open()
        let before = try fixture.item("Before")
        try await reader.change(.add(before))
        let shared = try #require(fixture.postgresDatabase)
        let database = try PostgresTodoDatabase(
            url: shared.database.url, lockTimeout: .milliseconds(300),
            extraStartupParameters: [("search_path", shared.schema)], maximumConnections: 4,
            notificationChannel: shared.channel)
        let running = Task { await database.run() }
        defer { running.cancel() }
        let store = try await PostgresStore.open(database, now: fixture.clock.now)

        let (locker, release) = await PostgresRoundTripTests.holdingTheListsRow(shared)
        let attempts: [(String, @Sendable () async throws -> Void)] = [
            ("an add", { try await store.change(.add(try fixture.item("Blocked"))) }),
            ("a rename", { try await store.change(.update(before.id, [.title(to: "Renamed")], at: fixture.clock.now())) }),
            ("an undo", { _ = try await store.undo() }),
        ]
        for (name, attempt) in attempts {
            let error = await #expect(throws: StoreError.self, "\(name) should fail after the lock timeout") { try await attempt() }
            #expect(
                error?.description.contains("another session of the database held the list for more than 300 milliseconds") == true,
                "\(name): \(String(describing: error))")
        }
        release.yield()
        try await locker.value

        try await store.change(.add(try fixture.item("After")))
        #expect(try await store.read { $0.todos.items.map(\.title) } == ["Before", "After"])
        #expect(try await reader.read { $0.todos.items.map(\.title) } == ["Before", "After"])
        #expect(try await store.history().steps.map(\.name) == ["Add “Before”", "Add “After”"])
    }

    /// A server where nothing listens (port 1: every connection is refused,
    /// and the pool would keep a request waiting until its breaker trips, a
    /// minute), or one that accepts and never answers (as a machine that
    /// drops packets): the request fails within the connect timeout, saying so.
    @Test(arguments: [false, true])
    func aPoolThatCannotConnectFailsWithinTheConnectTimeoutSayingSo(silent: Bool) async throws {
        let listener = silent ? try SilentServer() : nil
        let given = try DatabaseURL(try #require(PostgresTestDatabase.url))
        let unreachable = try DatabaseURL("postgres://\(given.username):x@127.0.0.1:\(listener?.port ?? 1)/\(given.database)")
        let database = try PostgresTodoDatabase(url: unreachable, connectTimeout: .seconds(1))
        let running = Task { await database.run() }
        defer { running.cancel() }
        let error = await #expect(throws: StoreError.self) {
            try await database.withPooledConnection { connection in
                try await connection.query("SELECT 1", logger: Logger(label: "test"))
            }
        }
        guard case .io(let path, let detail) = error else {
            Issue.record("expected StoreError.io, got \(String(describing: error))")
            return
        }
        #expect(path == unreachable.redacted)
        // Refusals that have lasted the connect timeout by then say so instead.
        #expect(
            detail == "no connection to the server within 1 second; is it running?"
                || (!silent && detail == "the server has refused every connection for 1 second (connection refused); is it running?"),
            "\(detail)")
        withExtendedLifetime(listener) {}
    }

    /// A server that refuses every connection of the pool (nothing listens
    /// on port 1): once the refusals have lasted the connect timeout, a
    /// request fails with their reason instead of waiting for the whole
    /// connect timeout, and so do the requests after it. (A refusal in the
    /// server's words is read as ``PoolConnectsTests`` shows; tried here,
    /// the pool's attempts would load the server that the other tests use.)
    @Test func aPoolWhoseConnectionsAreRefusedFailsWithTheReasonOnceTheyLast() async throws {
        let given = try DatabaseURL(try #require(PostgresTestDatabase.url))
        let url = try DatabaseURL("postgres://\(given.username):x@127.0.0.1:1/\(given.database)")
        let database = try PostgresTodoDatabase(url: url, connectTimeout: .seconds(3))
        let running = Task { await database.run() }
        defer { running.cancel() }
        let detail = { () async -> String in
            do {
                _ = try await database.withPooledConnection { connection in
                    try await connection.query("SELECT 1", logger: Logger(label: "test"))
                }
                return "answered"
            } catch let error as StoreError {
                guard case .io(_, let detail) = error else { return "\(error)" }
                return detail
            } catch {
                return "\(error)"
            }
        }
        // The first ones end at the connect timeout, until the refusals have lasted
        // (later on a machine so busy that the pool's attempts wait their turn).
        var details: [String] = []
        for _ in 0..<20 {
            details.append(await detail())
            if details.last?.hasPrefix("the server has refused") == true { break }
        }
        details.append(await detail())
        for detail in details.suffix(2) {
            #expect(detail.hasPrefix("the server has refused every connection for "), "\(details)")
            #expect(detail.hasSuffix("(connection refused); is it running?"))
        }
    }

    /// A health check of a store whose pool gets no connection (here, a
    /// pool that does not run) fails within the connect timeout, naming
    /// the database without its password, instead of waiting.
    @Test(.timeLimit(.minutes(1)))
    func aStoreWhosePoolGetsNoConnectionIsNotReachableWithinTheConnectTimeout() async throws {
        let shared = try await PostgresTestDatabase.make()
        let database = try PostgresTodoDatabase(
            url: shared.database.url, connectTimeout: .seconds(4),
            extraStartupParameters: [("search_path", shared.schema)], notificationChannel: shared.channel)
        // Opened over a connection of its own; the pool is never run.
        let store = try await PostgresStore.open(database)
        let started = ContinuousClock.now
        let error = await #expect(throws: StoreError.self) { try await store.checkReachable() }
        #expect(ContinuousClock.now - started < .seconds(8))
        guard case .io(let path, _) = error else {
            Issue.record("expected StoreError.io, got \(String(describing: error))")
            return
        }
        #expect(path == database.url.redacted)
    }

    /// A query written to a connection that has closed is never answered by
    /// postgres-nio (awaited directly, it waits forever, whatever the test's
    /// time limit); the store's queries give up on it instead of holding
    /// the store up for good.
    @Test func aQueryOnAConnectionThatClosedFailsInsteadOfWaitingForever() async throws {
        let given = try DatabaseURL(try #require(PostgresTestDatabase.url))
        let database = try PostgresTodoDatabase(url: given)
        let outcome = try await database.withDirectConnection { connection, logger in
            try await connection.close()
            return await Self.firstOf(seconds: 30) {
                do {
                    try await connection.answered("SELECT 1", logger: logger)
                    return "answered"
                } catch {
                    return "failed: \(error)"
                }
            }
        }
        #expect(outcome == "failed: the server closed the connection before it answered")
    }

    /// A server that stops answering without ending its connections: a
    /// change waiting for its answer is given up, saying so, instead of
    /// waiting for as long as the system keeps the connection open (a
    /// quarter of an hour); a read made meanwhile fails as soon as the
    /// server is asked again; and once it answers again, the next change
    /// is saved.
    @Test(.timeLimit(.minutes(3)))
    func aChangeTheServerStopsAnsweringIsGivenUpSayingSoAndTheNextAfterItIsSaved() async throws {
        let setUp = try await TwoStores(behindAProxy: true)
        let proxy = try #require(setUp.proxy)
        defer {
            setUp.running.cancel()
            proxy.stop()
        }
        let (fixture, store) = (setUp.fixture, setUp.store)
        proxy.freeze()
        let during = try fixture.item("During")
        let outcome = await Self.firstOf(seconds: 30) {
            do {
                try await store.change(.add(during))
                return "saved"
            } catch {
                return "failed: \(error)"
            }
        }
        #expect(outcome.hasPrefix("failed: "), "the change is given up, not left waiting")
        #expect(outcome.contains("the server stopped answering as the change was being committed"), "\(outcome)")
        #expect(outcome.contains("whether it was saved is not known"), "\(outcome)")
        let read = await Self.firstOf(seconds: 30) {
            do {
                return "read \(try await store.read { $0.todos.items.count }) items"
            } catch {
                return "failed: \(error)"
            }
        }
        // Within a second of the silence it fails at once; later, on a connection
        // of its own (given up) or waiting for one (the pool's was closed).
        #expect(read.hasPrefix("failed: "), "a read while the server does not answer fails: \(read)")

        proxy.thaw()
        try await waitUntil("the server answers again") {
            (try? await store.change(.add(try fixture.item("After")))) != nil
        }
        let titles = try await setUp.reader.read { $0.todos.items.map(\.title) }
        #expect(titles.first == "Before")
        #expect(titles.filter { $0 == "After" }.count == 1)
        #expect(titles.filter { $0 == "During" }.count <= 1, "the change given up is saved once at most")
    }

    /// A connection held longer than the patience, its queries answered
    /// sooner, has nobody ask the server anything: the patience counts a
    /// query's wait for its answer, not a lease. (On a machine so busy
    /// that a `SELECT 1` waits the patience itself, a question is due.)
    @Test func aLongLeaseWhoseQueriesAreAnsweredAsksNothing() async throws {
        let shared = try await PostgresTestDatabase.make()
        let patience = Duration.seconds(1)
        let database = try PostgresTodoDatabase(
            url: shared.database.url, answerPatience: patience, extraStartupParameters: [("search_path", shared.schema)],
            notificationChannel: shared.channel)
        let running = Task { await database.run() }
        defer { running.cancel() }
        let slowest = try await database.withPooledConnection { connection in
            let start = ContinuousClock.now
            var slowest = Duration.zero
            while ContinuousClock.now - start < patience * 3 {
                let asked = ContinuousClock.now
                for try await _ in try await connection.answered("SELECT 1", logger: Logger(label: "test")) {}
                slowest = max(slowest, ContinuousClock.now - asked)
                try await Task.sleep(for: .milliseconds(100))
            }
            return slowest
        }
        if slowest < patience - .milliseconds(200) {
            #expect(database.liveness.questionsAsked == 0)
        }
    }

    /// A query that waits longer than the patience for a lock another
    /// session holds, while the server answers, is not given up: the
    /// server asked on a new connection answers, and the query waits on.
    @Test(.timeLimit(.minutes(3)))
    func aChangeThatWaitsForALockWhileTheServerAnswersIsNotGivenUp() async throws {
        let setUp = try await TwoStores(behindAProxy: true, connectTimeout: .seconds(15))
        defer {
            setUp.running.cancel()
            setUp.proxy?.stop()
        }
        let (fixture, store) = (setUp.fixture, setUp.store)
        let (holder, release) = await PostgresRoundTripTests.holdingTheListsRow(setUp.shared)
        let after = try fixture.item("After")
        let changing = Task { try await store.change(.add(after)) }
        try await Task.sleep(for: .seconds(3))
        release.yield()
        try await holder.value
        _ = try await changing.value
        #expect(try await store.read { $0.todos.items.map(\.title) } == ["Before", "After"])
        #expect(setUp.database.liveness.questionsAsked >= 1, "the server was asked whether it answers")
        #expect(setUp.database.liveness.silence == nil)
    }

    /// What `body` returns, or "no answer" after `seconds`, without waiting
    /// for `body` to end (a hung query never does).
    private static func firstOf(seconds: Int, _ body: @escaping @Sendable () async -> String) async -> String {
        let first = Locked<CheckedContinuation<String, Never>?>(nil)
        return await withCheckedContinuation { continuation in
            first.withLock { $0 = continuation }
            let give = { @Sendable (text: String) in first.withLock { waiting in waiting.take() }?.resume(returning: text) }
            Task { give(await body()) }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                give("no answer")
            }
        }
    }
}

/// Whether the server answers, asked once however many queries wait.
@Suite("Server liveness")
struct ServerLivenessTests {
    /// Ten queries that wait at once ask one question, whose silence then
    /// stands while it is fresh.
    @Test func manyWaitsAskOneQuestionAndItsAnswerStandsWhileFresh() async throws {
        let liveness = ServerLiveness(freshFor: .seconds(3_600))
        let asked = Counter()
        let question = { @Sendable () async -> String? in
            asked.increment()
            try? await Task.sleep(for: .milliseconds(200))
            return "no answer within 2 seconds"
        }
        let silences = await withTaskGroup(of: ServerLiveness.Silence?.self) { group in
            for _ in 0..<10 { group.addTask { await liveness.ask(question) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(asked.value == 1)
        #expect(silences.allSatisfy { $0?.reason == "no answer within 2 seconds" })
        #expect(liveness.silence?.reason == "no answer within 2 seconds")
        #expect(await liveness.ask(question)?.reason == "no answer within 2 seconds", "a fresh silence stands")
        #expect(asked.value == 1)
        #expect(liveness.questionsAsked == 1)
    }

    /// Once no longer fresh, a silence is asked again, and an answer ends it.
    @Test func aSilenceNoLongerFreshIsAskedAgainAndAnAnswerEndsIt() async {
        let liveness = ServerLiveness(freshFor: .zero)
        let silent = Locked(true)
        let question = { @Sendable () async -> String? in silent.withLock { $0 } ? "connection refused" : nil }
        #expect(await liveness.ask(question)?.reason == "connection refused")
        silent.withLock { $0 = false }
        #expect(await liveness.ask(question) == nil)
        #expect(liveness.silence == nil)
        #expect(liveness.questionsAsked == 2)
    }

    /// A silence stands for the leases while fresh, and a query answered
    /// on a connection of the pool ends it.
    @Test func aFreshSilenceStandsForLeasesAndAnAnswerEndsIt() async {
        let liveness = ServerLiveness(freshFor: .seconds(3_600))
        #expect(liveness.recentSilence() == nil)
        #expect(await liveness.ask { "connection refused" }?.reason == "connection refused")
        #expect(liveness.recentSilence()?.reason == "connection refused")
        #expect(liveness.recentSilence(at: .now + .seconds(3_601)) == nil, "no longer fresh")
        liveness.answered()
        #expect(liveness.recentSilence() == nil)
        #expect(liveness.silence == nil)
    }

    /// How a query given up is described.
    @Test func aQueryGivenUpSaysHowLongItWaited() {
        let stopped = ServerStoppedAnswering(waited: .milliseconds(10_400), reason: "no answer within 5 seconds")
        #expect(stopped.description == "the server stopped answering: a query had no answer for 10 seconds, nor a new connection: no answer within 5 seconds")
        #expect(
            CommitOutcomeUnknown(givenUp: stopped).description
                == "the server stopped answering as the change was being committed (a query had no answer for 10 seconds, nor a new connection: no answer within 5 seconds), so whether it was saved is not known; once it answers again, look before making it again")
    }
}

/// What the pool's own attempts to connect found.
@Suite("Pool connects")
struct PoolConnectsTests {
    /// postgres-nio's errors as the pool logs them: a refusal by the
    /// system, and one by the server, are read; a timeout (a slow server
    /// is still there) and too many connections (it serves the others) are not.
    @Test func theRefusalsAreReadFromTheLoggedErrors() {
        #expect(
            PoolConnects.refusal(
                in: "PSQLError(code: connectionError, underlying: Connection errors: SingleConnectionFailure(target: [IPv4]127.0.0.1/127.0.0.1:1, error: connection reset (error set): Connection refused) (errno: 111)))")
                == .init(words: "connection refused", saidByTheServer: false))
        #expect(
            PoolConnects.refusal(
                in: "PSQLError(code: server, serverInfo: [sqlState: 3D000, file: postinit.c, line: 948, message: database \"nosuchdb\" does not exist, routine: InitPostgres, localizedSeverity: FATAL, severity: FATAL])")
                == .init(words: "database \"nosuchdb\" does not exist", saidByTheServer: true))
        #expect(
            PoolConnects.refusal(
                in: "PSQLError(code: server, serverInfo: [sqlState: 53300, message: sorry, too many clients already, routine: x])") == nil)
        #expect(PoolConnects.refusal(in: "PSQLError(code: connectionError, underlying: connectTimeout(5 seconds))") == nil)
    }

    /// Refusals count once they have lasted two seconds, with no query
    /// answered since; an answer ends them.
    @Test func refusalsCountOnceTheyLastAndAnAnswerEndsThem() {
        let connects = PoolConnects(refusedFor: .seconds(2))
        let start = ContinuousClock.now
        #expect(connects.refusal(at: start) == nil)
        connects.attemptFailed("error: connection reset (error set): Connection refused) (errno: 111)", at: start)
        connects.attemptFailed("connectTimeout", at: start + .seconds(1))
        #expect(connects.refusal(at: start + .milliseconds(1_900)) == nil)
        #expect(connects.refusal(at: start + .seconds(2)) == "the server has refused every connection for 2 seconds (connection refused); is it running?")
        connects.answered()
        #expect(connects.refusal(at: start + .seconds(3)) == nil)
        connects.attemptFailed("[sqlState: 28P01, message: password authentication failed for user \"ann\", routine: auth_failed]", at: start + .seconds(3))
        #expect(connects.refusal(at: start + .seconds(4)) == nil, "counted from the first refusal after the answer")
        #expect(connects.refusal(at: start + .seconds(5)) == "the server has refused every connection for 2 seconds: password authentication failed for user \"ann\"")
        #expect(connects.refusal(at: start + .seconds(24)) == nil, "refusals more than 20 seconds old are over")
        connects.attemptFailed("Connection refused", at: start + .seconds(60))
        #expect(connects.refusal(at: start + .seconds(61)) == nil, "a refusal after a long pause begins anew")
        #expect(connects.refusal(at: start + .seconds(62)) != nil)
    }
}

/// The one timer of the waits that must not last for ever.
@Suite("Wait watch")
struct WaitWatchTests {
    @Test func aCheckIsCalledEveryTickUntilItIsDoneAndAnEndedOneNeverAgain() async throws {
        let watch = WaitWatch()
        let calls = Locked(0)
        let endedCalls = Locked(0)
        let deadline = ContinuousClock.now + .milliseconds(350)
        _ = watch.watch { now in
            calls.withLock { $0 += 1 }
            return now >= deadline
        }
        let ended = watch.watch { _ in
            endedCalls.withLock { $0 += 1 }
            return false
        }
        watch.end(ended)
        #expect(watch.watched == 1)
        try await waitUntil("the check done", timeout: .seconds(60)) { watch.watched == 0 }
        // Called at ticks of 100 ms until 350 ms had passed, then dropped.
        let called = calls.withLock { $0 }
        #expect((1...5).contains(called))
        try await Task.sleep(for: .milliseconds(300))
        #expect(calls.withLock { $0 } == called)
        #expect(endedCalls.withLock { $0 } == 0)
        // The watch starts ticking again for a new wait after it stopped.
        let again = Locked(false)
        _ = watch.watch { _ in
            again.withLock { $0 = true }
            return true
        }
        try await waitUntil("the new check called and done", timeout: .seconds(60)) { again.withLock { $0 } && watch.watched == 0 }
    }
}

/// How long an operation is tried again after the server ended its
/// connection: for a window of time, however many tries that takes.
@Suite("Tries after the server ends a connection")
struct RetryingWhenConnectionsEndTests {
    @Test func anOperationIsTriedAgainWhileItsConnectionsEndWithinTheWindow() async throws {
        let calls = Locked(0)
        let answer = try await PostgresTodoDatabase.whenConnectionsEnd(within: .seconds(600)) {
            let call = calls.withLock { calls in
                calls += 1
                return calls
            }
            if call <= 8 { throw ConnectionClosedBeforeUse() }
            return 42
        }
        #expect(answer == 42)
        #expect(calls.withLock { $0 } == 9)
    }

    /// However late a busy machine wakes the task, the minimum of tries
    /// is made; and no more than fit in the window.
    @Test(arguments: [Duration.zero, .milliseconds(300)])
    func anOperationWhoseConnectionsKeepEndingFailsOnceTheWindowIsOver(window: Duration) async throws {
        let calls = Locked(0)
        await #expect(throws: ConnectionClosedBeforeUse.self) {
            try await PostgresTodoDatabase.whenConnectionsEnd(within: window) {
                calls.withLock { $0 += 1 }
                throw ConnectionClosedBeforeUse()
            }
        }
        // The first try and one after each of the four pauses made in any
        // case (10, 20, 40 and 80 ms); a fifth of 160 ms ends after 300.
        #expect(calls.withLock { $0 } == 1 + RetryingWhenConnectionsEnd.minimumPauses)
    }

    @Test func otherErrorsAreNotTriedAgain() async throws {
        let calls = Locked(0)
        await #expect(throws: StoreError.self) {
            try await PostgresTodoDatabase.whenConnectionsEnd(within: .seconds(30)) {
                calls.withLock { $0 += 1 }
                throw StoreError.io(path: "postgres://db", detail: "no connection")
            }
        }
        #expect(calls.withLock { $0 } == 1)
    }
}
