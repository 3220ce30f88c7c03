import Foundation
import PostgresNIO
import Testing
import Rewind
import TestSupport
import Todos
import TodoStore
@testable import TodoStorePostgres

/// What only the PostgreSQL store has: several instances over one
/// database, and its schema's versions. (The shared suite,
/// `StoreSuiteTests`, runs against it too.)
@Suite("PostgreSQL store", .dropsPostgresSchemas, .enabled(if: PostgresTestDatabase.url != nil, PostgresTestDatabase.missing))
struct PostgresStoreTests {
    /// A second pool over the same schema: another server instance.
    func anotherInstance(of first: PostgresTestDatabase) throws -> (PostgresTodoDatabase, Task<Void, Never>) {
        let database = try PostgresTodoDatabase(
            url: first.database.url, extraStartupParameters: [("search_path", first.schema)], maximumConnections: 4, notificationChannel: first.channel)
        return (database, Task { await database.run() })
    }

    @Test func concurrentWritersOnTwoInstancesKeepOneGapFreeHistory() async throws {
        let fixture = try StoreFixture(.postgres)
        let first = try await fixture.open()
        let shared = try #require(fixture.postgresDatabase)
        let (otherDatabase, otherRunning) = try anotherInstance(of: shared)
        defer { otherRunning.cancel() }
        let second = try await PostgresStore.open(otherDatabase, now: fixture.clock.now)
        let perWriter = 15
        let stores: [any AppStore] = [first, second]
        // Both instances add at once, then both undo at once: the history
        // is one, so each undo takes back the newest step, whoever made it.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    for number in 0..<perWriter {
                        let item = try TodoItem(id: UUID(), title: "Writer \(index) item \(number)", created: Date(timeIntervalSince1970: 0))
                        try await store.change(.add(item))
                    }
                }
            }
            try await group.waitForAll()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in stores {
                group.addTask {
                    for _ in 0..<5 { try await store.undo() }
                }
            }
            try await group.waitForAll()
        }
        // 30 changes and 10 undos: 40 rows numbered 1…40.
        let numbers = try await shared.database.client.query("SELECT seq FROM rewind_step ORDER BY seq")
            .decode(Int64.self).reduce(into: [Int64]()) { $0.append($1) }
        #expect(numbers == Array(1...Int64(2 * perWriter + 10)))
        let reopened = try await fixture.open()
        let state = try await reopened.state()
        let history = try await reopened.history()
        #expect(state.todos.count == 2 * perWriter - 10)
        #expect(history.steps.count == 2 * perWriter)
        #expect(history.position == 2 * perWriter - 10)
        // Every writer's adds are there, in the order they were made.
        for index in 0..<2 {
            let titles = history.steps.map(\.name).filter { $0.contains("Writer \(index)") }
            #expect(titles == (0..<perWriter).map { "Add “Writer \(index) item \($0)”" })
        }
        // Each instance sees what the other wrote.
        #expect(try await first.state() == state)
        #expect(try await second.state() == state)
        #expect(try await first.history() == history)
        #expect(try await second.history() == history)
    }

    @Test func aChangeToAnItemAnotherInstanceJustAddedIsMadeNotRefused() async throws {
        let fixture = try StoreFixture(.postgres)
        let first = try await fixture.open()
        try await first.change(.add(try fixture.item("Buy milk")))
        let shared = try #require(fixture.postgresDatabase)
        let (otherDatabase, otherRunning) = try anotherInstance(of: shared)
        defer { otherRunning.cancel() }
        let second = try await PostgresStore.open(otherDatabase, now: fixture.clock.now)
        let bread = try fixture.item("Buy bread")
        try await second.change(.add(bread))
        // The first instance's list in memory has no such item: the removal
        // must be weighed against the database's list, not refused.
        try await first.change(.remove(bread.id))
        #expect(try await second.state().todos.items.map(\.title) == ["Buy milk"])
        #expect(try await first.history().steps.map(\.name) == ["Add “Buy milk”", "Add “Buy bread”", "Delete “Buy bread”"])
    }

    /// The migrations of a schema hold a lock of that schema's: a store
    /// over another schema of the database opens meanwhile (the tests'
    /// schemas once took turns, and a test that starts `rewind` waited
    /// behind dozens of them), and one over the same schema waits for it.
    @Test(.timeLimit(.minutes(3)))
    func aSchemasMigrationsWaitOnlyForThatSchemas() async throws {
        let fixture = try StoreFixture(.postgres)
        _ = try await fixture.open()
        let shared = try #require(fixture.postgresDatabase)
        let logger = Logger(label: "test")
        try await shared.database.client.withConnection { connection in
            // As a migration of the fixture's schema in progress.
            _ = try await connection.query("BEGIN", logger: logger)
            try await PostgresSchema.takeMigrationLock(connection, logger: logger)
            let other = try StoreFixture(.postgres)
            let (otherOpened, opened) = (Locked(false), Locked(false))
            let elsewhere = Task {
                _ = try await other.open()
                otherOpened.withLock { $0 = true }
            }
            let waiting = Task {
                _ = try await fixture.open()
                opened.withLock { $0 = true }
            }
            // At most 60 s (a store opened in 20 s on a loaded machine was not
            // enough in CI), then the lock goes either way (a failure must not hang).
            let deadline = ContinuousClock.now + .seconds(60)
            while !otherOpened.withLock({ $0 }) && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(otherOpened.withLock { $0 }, "a store over another schema opens meanwhile")
            #expect(!opened.withLock { $0 }, "a store over the locked schema waits")
            _ = try await connection.query("COMMIT", logger: logger)
            try await elsewhere.value
            try await waiting.value
            #expect(opened.withLock { $0 })
        }
    }

    @Test func aDatabaseOfANewerSchemaIsRefusedAndLeftUnchanged() async throws {
        let fixture = try StoreFixture(.postgres)
        let store = try await fixture.open()
        try await store.change(.add(try fixture.item("Buy milk")))
        let shared = try #require(fixture.postgresDatabase)
        let client = shared.database.client
        try await client.query("INSERT INTO rewind_schema (version) VALUES ('v99')")
        func snapshot() async throws -> [String] {
            var rows: [String] = []
            for query: PostgresQuery in [
                "SELECT string_agg(version, ',' ORDER BY version) FROM rewind_schema",
                "SELECT string_agg(id::text || title, ',' ORDER BY id) FROM rewind_item",
                "SELECT string_agg(seq::text || kind || name, ',' ORDER BY seq) FROM rewind_step",
                "SELECT string_agg(id::text || last_seq::text || node::text || epoch::text, ',') FROM rewind_list",
            ] {
                for try await value in try await client.query(query).decode(String?.self) { rows.append(value ?? "") }
            }
            return rows
        }
        let before = try await snapshot()
        await #expect(throws: StoreError.newerSchema(path: shared.database.url.redacted, unknownMigrations: ["v99"])) {
            _ = try await fixture.open()
        }
        #expect(try await snapshot() == before)
        #expect(StoreError.newerSchema(path: "x", unknownMigrations: ["v99"]).description.contains("Upgrade Rewind"))
    }

    @Test func aWrongPasswordIsNamedAsSuch() async throws {
        let given = try DatabaseURL(try #require(PostgresTestDatabase.url))
        let wrong = try DatabaseURL("postgres://\(given.username):not-the-password@\(given.host):\(given.port)/\(given.database)")
        do {
            try await PostgresTodoDatabase(url: wrong).check()
            Issue.record("a wrong password was accepted")
        } catch {
            #expect("\(error)".contains("password authentication failed"))
            #expect(!"\(error)".contains("not-the-password"))
        }
    }
}

@Suite("PostgreSQL URLs and connections")
struct DatabaseURLTests {
    @Test func anUnreachableServerIsNamedAtOnce() async throws {
        // Nothing listens on port 1 of this machine.
        let database = try PostgresTodoDatabase(url: DatabaseURL("postgres://rewind@127.0.0.1:1/rewind"), connectTimeout: .seconds(2))
        await #expect(throws: StoreError.self) { try await database.check() }
        do {
            try await database.check()
        } catch {
            #expect("\(error)".contains("postgres://rewind@127.0.0.1:1/rewind"))
            #expect("\(error)".contains("connection refused"))
        }
    }

    @Test func aFullURLIsReadWithItsParts() throws {
        let url = try DatabaseURL("postgresql://anna:s%40cret@db.example:6543/to%20dos?sslmode=require")
        #expect(url.username == "anna")
        #expect(url.password == "s@cret")
        #expect(url.host == "db.example")
        #expect(url.port == 6543)
        #expect(url.database == "to dos")
        #expect(url.tls == .require)
        #expect(url.redacted == "postgres://anna@db.example:6543/to dos")
        #expect(url.connectTimeout == nil && url.poolMaxConnections == nil && url.sslRootCertificate == nil)
        let verifying = try DatabaseURL("postgres://anna@db/todos?sslmode=verify-full&sslrootcert=/etc/rewind/ca.pem")
        #expect(verifying.tls == .verifyFull && verifying.sslRootCertificate == "/etc/rewind/ca.pem")
        #expect(try DatabaseURL("postgres://anna@db/todos?sslmode=verify-ca").tls == .verifyCA)
        #expect(try DatabaseURL("postgres://anna@db/todos").port == 5432)
    }

    /// As libpq's: no host is the server's Unix socket, in `?host=`'s
    /// directory or the system's; no user is the one running the program.
    @Test func aURLWithoutAHostNamesTheSocketAndWithoutAUserTheProgramsUser() throws {
        let local = try DatabaseURL("postgres:///todos")
        #expect(local.socketDirectory == DatabaseURL.defaultSocketDirectory)
        #expect(local.socketPath == "\(DatabaseURL.defaultSocketDirectory)/.s.PGSQL.5432")
        #expect(local.username == ProcessInfo.processInfo.userName)
        #expect(try DatabaseURL("postgres://db/todos").username == ProcessInfo.processInfo.userName)
        let there = try DatabaseURL("postgresql://anna:secret@:5433/todos?host=/run/pg")
        #expect(there.socketPath == "/run/pg/.s.PGSQL.5433")
        #expect(there.host.isEmpty && there.username == "anna")
        #expect(there.redacted == "postgres://anna@:5433/todos?host=/run/pg")
        #expect(try DatabaseURL("postgres://anna@/todos?host=/run/pg").redacted == "postgres://anna@/todos?host=/run/pg")
        #expect(try DatabaseURL("postgres://anna@db/todos").socketPath == nil)
    }

    /// libpq's `connect_timeout` and the pool's size, for a team that runs
    /// several instances within the server's `max_connections`.
    @Test func theConnectTimeoutAndThePoolSizeAreReadFromTheURL() throws {
        let url = try DatabaseURL("postgres://anna@db/todos?sslmode=disable&connect_timeout=12&pool_max_conns=7")
        #expect(url.tls == .disable)
        #expect(url.connectTimeout == .seconds(12))
        #expect(url.poolMaxConnections == 7)
        let database = try PostgresTodoDatabase(url: url)
        #expect(database.connectTimeout == .seconds(12))
        // What the code asks for wins over the URL.
        #expect(try PostgresTodoDatabase(url: url, connectTimeout: .seconds(1)).connectTimeout == .seconds(1))
        #expect(try PostgresTodoDatabase(url: DatabaseURL("postgres://anna@db/todos")).connectTimeout == .seconds(5))
    }

    /// A pool of `pool_max_conns` opens no more connections than that,
    /// however many operations want one at once.
    @Test(.enabled(if: PostgresTestDatabase.url != nil, PostgresTestDatabase.missing))
    func thePoolOpensNoMoreConnectionsThanTheURLAllows() async throws {
        let given = try #require(PostgresTestDatabase.url)
        let name = "rewind pool \(UUID().uuidString.prefix(8))"
        let url = try DatabaseURL(given + (given.contains("?") ? "&" : "?") + "pool_max_conns=2")
        let database = try PostgresTodoDatabase(url: url, extraStartupParameters: [("application_name", name)])
        let running = Task { await database.run() }
        defer { running.cancel() }
        let most = Locked(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await database.client.withConnection { connection in
                        for try await (count,) in try await connection.query(
                            "SELECT count(*)::int FROM pg_stat_activity WHERE application_name = \(name)", logger: Logger(label: "test")
                        ).decode((Int,).self) {
                            most.withLock { $0 = max($0, count) }
                        }
                        try await Task.sleep(for: .milliseconds(50))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(most.withLock { $0 } == 2)
    }

    /// libpq's `application_name`: what `pg_stat_activity` shows of each
    /// connection, "rewind" unless the URL says, and " listen" after it for
    /// the listening connections, so that a team tells its instances apart.
    @Test(.enabled(if: PostgresTestDatabase.url != nil, PostgresTestDatabase.missing))
    func theURLNamesTheConnectionsToTheServer() async throws {
        let given = try #require(PostgresTestDatabase.url)
        let name = "rewind-a \(UUID().uuidString.prefix(8))"
        let encoded = try #require(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let url = try DatabaseURL(given + (given.contains("?") ? "&" : "?") + "application_name=" + encoded)
        #expect(url.applicationName == name)
        let database = try PostgresTodoDatabase(url: url)
        #expect(database.applicationName == name)
        #expect(try PostgresTodoDatabase(url: DatabaseURL("postgres://anna@db/todos")).applicationName == "rewind")
        let running = Task { await database.run() }
        defer { running.cancel() }
        let query: PostgresQuery = "SELECT application_name FROM pg_stat_activity WHERE pid = pg_backend_pid()"
        let pooled = try await database.client.withConnection { connection in
            var names: [String] = []
            for try await (found,) in try await connection.query(query, logger: Logger(label: "test")).decode((String,).self) {
                names.append(found)
            }
            return names
        }
        #expect(pooled == [name])
        let listening = try await database.connect(
            logger: Logger(label: "test"), extraStartupParameters: [("application_name", PostgresStore.listenerName(of: database))])
        var names: [String] = []
        for try await (found,) in try await listening.query(query, logger: Logger(label: "test")).decode((String,).self) {
            names.append(found)
        }
        try await listening.close()
        #expect(names == [name + " listen"])
    }

    /// Each part is decoded once: an encoded "%" stays a "%" sign, and an
    /// encoded "/" or "@" is part of the name.
    @Test func percentEncodedPartsAreDecodedOnce() throws {
        let url = try DatabaseURL("postgres://an%2541:p%2542%40x@db/to%2Fdos%2543")
        #expect(url.username == "an%41")
        #expect(url.password == "p%42@x")
        #expect(url.database == "to/dos%43")
    }

    @Test(arguments: [
        ("http://anna@db/todos", "scheme"),
        ("postgres:///todos?host=db", "“host=db” is not a directory"),
        ("postgres://anna@db/todos?host=/run/postgresql", "it names a host and host=/run/postgresql too"),
        ("postgres://anna@db", "no database"),
        ("postgres://anna@db:0/todos", "port"),
        ("postgres://anna@db/todos?pool=3", "“pool” is not known (sslmode=disable, prefer, require, verify-ca or verify-full; sslrootcert=FILE with verify-ca or verify-full; connect_timeout=SECONDS, 1 to 3600; pool_max_conns=N, 2 to 1000; host=/DIRECTORY of the socket; application_name=NAME, 1 to 56 printable ASCII characters)"),
        ("postgres://anna@db/todos?connect_timeout=0", "“connect_timeout=0” is not allowed"),
        ("postgres://anna@db/todos?connect_timeout=soon", "connect_timeout=soon"),
        ("postgres://anna@db/todos?pool_max_conns=1001", "pool_max_conns=1001"),
        ("postgres://anna@db/todos?pool_max_conns=1", "“pool_max_conns=1” is not allowed"),
        ("postgres://anna@db/todos?sslmode=allow", "“sslmode=allow” is not allowed"),
        ("postgres://anna@db/todos?sslmode=require&sslrootcert=/ca.pem", "sslrootcert is used only with sslmode=verify-ca or verify-full"),
        ("postgres://anna@db/todos?sslmode=verify-full&sslrootcert=", "“sslrootcert=” is not allowed"),
        ("todos", "not a URL"),
        ("postgres://anna:50%off@db/todos", "a % sign not followed by two hex digits (write a % sign as %25)"),
        ("postgres://anna@db/todos%", "a % sign not followed by two hex digits"),
        ("postgres:///todos?host=/tmp%00x", "its parameter “host” holds the control character U+0000"),
        ("postgres://anna@db/todos?sslmode=verify-full&sslrootcert=/ca%0A.pem", "“sslrootcert” holds the control character U+000A"),
        ("postgres://anna@db/to%1Bdos", "its database holds the control character U+001B"),
        ("postgres://an%7Fna@db/todos", "its user holds the control character U+007F"),
        ("postgres://anna@db%09x/todos", "its host holds the control character U+0009"),
        ("postgres://anna@db/todos?application_name=", "“application_name=” is not allowed"),
        ("postgres://anna@db/todos?application_name=caf%C3%A9", "“application_name=café” is not allowed"),
        ("postgres://anna@db/todos?application_name=" + String(repeating: "x", count: 57), "is not allowed"),
    ])
    func aMalformedURLSaysWhatIsWrong(_ text: String, _ problem: String) {
        #expect(throws: DatabaseURLError.self) { try DatabaseURL(text) }
        do {
            _ = try DatabaseURL(text)
        } catch {
            #expect(error.description.contains(problem))
            #expect(error.description.contains("postgres://user[:password]@host[:port]/database"))
        }
    }

    /// A control character given as it is (from an environment variable,
    /// say) is shown in caret notation, never written to the terminal.
    @Test func aRefusedURLShowsItsControlCharactersVisibly() {
        do {
            _ = try DatabaseURL("postgres://anna@db/todos\u{1B}[2J\u{0}")
            Issue.record("accepted")
        } catch {
            #expect(error.description.contains("todos^[[2J^@"), "\(error)")
            #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 }, "\(error)")
        }
    }

    @Test func aRefusedURLNeverShowsItsPassword() {
        do {
            _ = try DatabaseURL("mysql://anna:s3cret@db/todos")
            Issue.record("accepted")
        } catch {
            #expect(!error.description.contains("s3cret"))
        }
        do {
            _ = try DatabaseURL("postgres://anna:s3cret%zz@db/todos")
            Issue.record("accepted")
        } catch {
            #expect(!error.description.contains("s3cret") && !error.description.contains("zz"), "\(error)")
        }
    }
}
