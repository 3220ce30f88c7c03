import Foundation
import Logging
import PostgresNIO
import Testing
import TodoStorePostgres

/// A PostgreSQL schema of one test's own, in the database of
/// `REWIND_TEST_DATABASE_URL` (`scripts/postgres-test-cluster.sh start`
/// prints one), so that tests run side by side; its pool runs until the
/// value goes.
final class PostgresTestDatabase: Sendable {
    /// The URL of the test server, if there is one.
    static let url: String? = ProcessInfo.processInfo.environment["REWIND_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// Why the PostgreSQL tests do not run, printed by the test runner.
    static let missing: Comment =
        "REWIND_TEST_DATABASE_URL is not set, so there is no PostgreSQL to test against; start one with `export REWIND_TEST_DATABASE_URL=$(scripts/postgres-test-cluster.sh start)`"

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
                backgroundLogger: backgroundLogger),
            schema: schema)
        // The name is made of hex digits above: no quoting can go wrong.
        try await made.database.client.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"))
        return made
    }
}
