import Foundation
import Logging
import PostgresNIO
import Testing
import TestSupport
@testable import TodoStorePostgres

/// A PostgreSQL schema of one test's own, in the database of
/// `REWIND_TEST_DATABASE_URL` (`scripts/postgres-test-cluster.sh start`
/// prints one), so that tests run side by side; its pool runs until
/// ``end()`` (or until the value goes). A test of a suite marked
/// ``Trait/dropsPostgresSchemas`` has its schemas dropped and their pools
/// stopped when it ends, passed or failed.
final class PostgresTestDatabase: Sendable {
    /// The URL of the test server, if there is one.
    static let url: String? = ProcessInfo.processInfo.environment["REWIND_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// Why the PostgreSQL tests do not run, printed by the test runner.
    static let missing: Comment =
        "REWIND_TEST_DATABASE_URL is not set, so there is no PostgreSQL to test against; start one with `export REWIND_TEST_DATABASE_URL=$(scripts/postgres-test-cluster.sh start)`"

    /// The schemas the running test made, set by ``Trait/dropsPostgresSchemas``.
    @TaskLocal static var madeByTest: Locked<[PostgresTestDatabase]>?

    /// The database, its connections in the test's schema.
    let database: PostgresTodoDatabase
    /// The schema's name.
    let schema: String
    private let running: Task<Void, Never>

    private init(database: PostgresTodoDatabase, schema: String) {
        self.database = database
        self.schema = schema
        running = Task { await database.run() }
    }

    deinit {
        running.cancel()
    }

    /// A new, empty schema, its pool's connections logging to
    /// `backgroundLogger`; cancels the test (with the reason) when there is
    /// no server.
    static func make(backgroundLogger: Logger? = nil) async throws -> PostgresTestDatabase {
        guard let url else { try Test.cancel(missing) }
        let schema = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let made = PostgresTestDatabase(
            database: try PostgresTodoDatabase(
                url: DatabaseURL(url), extraStartupParameters: [("search_path", schema)], maximumConnections: 4,
                notificationChannel: channel(of: schema), backgroundLogger: backgroundLogger),
            schema: schema)
        madeByTest?.withLock { $0.append(made) }
        // The name is made of hex digits above: no quoting can go wrong.
        try await made.database.client.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"))
        return made
    }

    /// The notification channel of the stores over `schema`: the schema's
    /// own, so that other tests' commits wake none of them.
    static func channel(of schema: String) -> String { "rewind_\(schema)" }

    /// The notification channel of the stores over this schema.
    var channel: String { Self.channel(of: schema) }

    /// Drops the schema, on a connection of its own (whatever state the
    /// pool is in), and stops the pool.
    func end() async {
        running.cancel()
        await running.value
        let schema = schema
        _ = try? await database.withDirectConnection { connection, logger in
            try await connection.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(schema) CASCADE"), logger: logger)
        }
    }
}

/// Drops the PostgreSQL schemas each test made and stops their pools when
/// the test ends, whether it passed, failed or threw.
struct DropsPostgresSchemas: TestTrait, SuiteTrait, TestScoping {
    /// Every test of a suite so marked, each on its own.
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let made = Locked<[PostgresTestDatabase]>([])
        do {
            try await PostgresTestDatabase.$madeByTest.withValue(made) { try await function() }
        } catch {
            for database in made.value { await database.end() }
            throw error
        }
        for database in made.value { await database.end() }
    }
}

extension Trait where Self == DropsPostgresSchemas {
    /// Drops the PostgreSQL schemas of each test when it ends (``DropsPostgresSchemas``).
    static var dropsPostgresSchemas: Self { DropsPostgresSchemas() }
}
