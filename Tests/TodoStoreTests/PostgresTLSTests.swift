import Foundation
import PostgresNIO
import Testing
import TodoStore
@testable import TodoStorePostgres

/// `sslmode` as libpq reads it, against the test server with TLS on and a
/// self-signed certificate for the name `localhost` only
/// (`REWIND_PG_SSL=on scripts/postgres-test-cluster.sh start`), as a server
/// set up by hand often has: `prefer` (the default) and `require` encrypt
/// without checking it, `verify-ca` checks who signed it, `verify-full`
/// also the name; a refusal says why and what to change.
extension PostgresTestDatabase {
    /// The file of the test server's certificate, when it runs with TLS
    /// (`REWIND_TEST_DATABASE_CA`).
    static let certificate: String? = ProcessInfo.processInfo.environment["REWIND_TEST_DATABASE_CA"].flatMap {
        $0.isEmpty || url == nil ? nil : $0
    }

    /// The directory of the test server's Unix socket
    /// (`REWIND_TEST_DATABASE_SOCKET`).
    static let socket: String? = ProcessInfo.processInfo.environment["REWIND_TEST_DATABASE_SOCKET"].flatMap {
        $0.isEmpty || url == nil ? nil : $0
    }

    /// Why the socket test does not run, printed by the test runner.
    static let withoutSocket: Comment =
        "REWIND_TEST_DATABASE_SOCKET is not set; set it to `scripts/postgres-test-cluster.sh socket` to connect through the test server's socket"

    /// Why the TLS tests do not run, printed by the test runner.
    static let withoutTLS: Comment =
        "REWIND_TEST_DATABASE_CA is not set, so the test server has no TLS to test; start it with `REWIND_PG_SSL=on scripts/postgres-test-cluster.sh start` and set the variable to `scripts/postgres-test-cluster.sh ca`"
}

/// A connection through the test server's Unix socket
/// (`REWIND_TEST_DATABASE_SOCKET`, `scripts/postgres-test-cluster.sh
/// socket`): a URL that names no host, and the socket's directory.
@Suite("PostgreSQL through its Unix socket", .enabled(if: PostgresTestDatabase.socket != nil, PostgresTestDatabase.withoutSocket))
struct PostgresSocketTests {
    @Test func aURLWithoutAHostConnectsThroughTheSocket() async throws {
        let socket = try #require(PostgresTestDatabase.socket)
        let given = try DatabaseURL(try #require(PostgresTestDatabase.url))
        let password = given.password.map { ":\($0)" } ?? ""
        let url = try DatabaseURL("postgres://\(given.username)\(password)@:\(given.port)/\(given.database)?host=\(socket)")
        let database = try PostgresTodoDatabase(url: url)
        let address = try await database.withDirectConnection { connection, logger in
            var address: String?
            // The client's address is NULL for a socket's connection.
            for try await (client,) in try await connection.query(
                "SELECT coalesce(inet_client_addr()::text, 'socket') FROM pg_stat_activity WHERE pid = pg_backend_pid()", logger: logger
            ).decode((String,).self) {
                address = client
            }
            return address
        }
        #expect(address == "socket")
        let elsewhere = try DatabaseURL("postgres://\(given.username)@:\(given.port)/\(given.database)?host=/nonexistent")
        let error = await #expect(throws: StoreError.self) { try await PostgresTodoDatabase(url: elsewhere).check() }
        #expect(String(describing: error).contains("postgres://\(given.username)@/\(given.database)?host=/nonexistent")
            || String(describing: error).contains("?host=/nonexistent"), "\(String(describing: error))")
    }
}

@Suite("PostgreSQL over TLS", .enabled(if: PostgresTestDatabase.certificate != nil, PostgresTestDatabase.withoutTLS))
struct PostgresTLSTests {
    /// The test server's URL with `host` and the query `parameters`.
    static func url(host: String = "127.0.0.1", _ parameters: String) throws -> DatabaseURL {
        let given = try DatabaseURL(try #require(PostgresTestDatabase.url))
        let password = given.password.map { ":\($0)" } ?? ""
        let query = parameters.isEmpty ? "" : "?\(parameters)"
        return try DatabaseURL("postgres://\(given.username)\(password)@\(host):\(given.port)/\(given.database)\(query)")
    }

    /// Whether a connection made as `url` says is encrypted, as the server sees it.
    static func encrypted(_ url: DatabaseURL) async throws -> Bool {
        let database = try PostgresTodoDatabase(url: url, connectTimeout: .seconds(5))
        return try await database.withDirectConnection { connection, logger in
            var encrypted: Bool?
            for try await (ssl,) in try await connection.query(
                "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: logger
            ).decode((Bool,).self) {
                encrypted = ssl
            }
            guard let encrypted else { throw StoreError.io(path: url.redacted, detail: "pg_stat_ssl has no row for the connection") }
            return encrypted
        }
    }

    /// What connecting as `url` fails with.
    static func refusal(_ url: DatabaseURL) async throws -> String {
        let database = try PostgresTodoDatabase(url: url, connectTimeout: .seconds(5))
        let error = await #expect(throws: StoreError.self) { try await database.check() }
        return String(describing: try #require(error))
    }

    @Test func preferAndRequireEncryptWithoutCheckingTheCertificateAndDisableDoesNot() async throws {
        #expect(try await Self.encrypted(Self.url("")), "prefer, the default")
        #expect(try await Self.encrypted(Self.url("sslmode=prefer")))
        #expect(try await Self.encrypted(Self.url("sslmode=require")))
        #expect(try await !Self.encrypted(Self.url("sslmode=disable")))
    }

    @Test func verifyCAChecksWhoSignedTheCertificate() async throws {
        let certificate = try #require(PostgresTestDatabase.certificate)
        let untrusted = try await Self.refusal(Self.url("sslmode=verify-ca"))
        #expect(untrusted.contains("the server's certificate is not signed by the system's authorities (sslmode=verify-ca)"), "\(untrusted)")
        #expect(untrusted.contains("sslrootcert=FILE"), "\(untrusted)")
        // Signed by the authority given, and any name will do.
        #expect(try await Self.encrypted(Self.url("sslmode=verify-ca&sslrootcert=\(certificate)")))
    }

    @Test func verifyFullAlsoChecksTheName() async throws {
        let certificate = try #require(PostgresTestDatabase.certificate)
        let byAddress = try await Self.refusal(Self.url("sslmode=verify-full&sslrootcert=\(certificate)"))
        #expect(byAddress.contains("the server's certificate does not name 127.0.0.1 (sslmode=verify-full)"), "\(byAddress)")
        #expect(try await Self.encrypted(Self.url(host: "localhost", "sslmode=verify-full&sslrootcert=\(certificate)")))
    }

    @Test func aRootCertificateFileThatCannotBeReadIsNamed() throws {
        let missing = "/nonexistent/\(UUID().uuidString).pem"
        #expect {
            _ = try PostgresTodoDatabase(url: Self.url("sslmode=verify-full&sslrootcert=\(missing)"))
        } throws: { error in
            "\(error)".contains("sslrootcert “\(missing)” cannot be read as PEM certificates")
        }
    }
}
