import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Rewind
import TodoStore
import Todos

/// A PostgreSQL database of the to-do app: its URL and the connection pool
/// (`PostgresClient`) over it. The pool works only while ``client`` runs:
/// as a service of the Hummingbird application (`rewind serve`), or in a
/// task of its own (``run()``).
///
/// ```swift
/// let database = try PostgresTodoDatabase(url: DatabaseURL("postgres://rewind@db:5432/todos"))
/// try await database.check()                 // one clear error, within seconds, when it cannot be reached
/// let running = Task { await database.run() }
/// let store = try await PostgresStore.open(database)
/// ```
public struct PostgresTodoDatabase: Sendable {
    /// Where the database is.
    public let url: DatabaseURL
    /// The connection pool; run it (it is a ServiceLifecycle `Service`).
    public let client: PostgresClient
    /// How long connecting, logging in included, may take.
    public let connectTimeout: Duration
    /// How long a statement may wait for a lock (PostgreSQL's
    /// `lock_timeout`, sent at every connection): the list's row that
    /// another session holds in a transaction left open, for instance.
    /// Past it the operation fails, saying so, and nothing is changed,
    /// instead of waiting as long as that session stays open.
    public let lockTimeout: Duration
    /// How long a query waits for its answer before the server is asked,
    /// on a connection of its own, whether it still answers: when it does
    /// not, the query is given up rather than left waiting for as long as
    /// the system keeps its connection open (``ServerLiveness``).
    public let answerPatience: Duration
    /// The channel on which the commits to the to-do list notify the other
    /// instances (`NOTIFY`) and on which they listen: every instance over
    /// one list must use the same.
    public let notificationChannel: String

    /// A pool of connections to `url`, with `extraStartupParameters` sent at
    /// every connection (`search_path`, for instance) after ``lockTimeout``,
    /// logging what its connections do to `backgroundLogger` (nothing when
    /// `nil`). Nothing connects yet. The to-do list's commits notify on
    /// `notificationChannel` ("rewind" unless several deployments share
    /// the database's notifications, as the tests' schemas do).
    ///
    /// When `nil`, `connectTimeout` is the URL's `connect_timeout`, else 5
    /// seconds, and `maximumConnections` (the most the pool opens) the URL's
    /// `pool_max_conns`, else 20.
    ///
    /// - Throws: ``StoreError/io(path:detail:)`` when the URL's
    ///   `sslrootcert` cannot be read.
    public init(
        url: DatabaseURL, connectTimeout: Duration? = nil, lockTimeout: Duration = .seconds(10),
        answerPatience: Duration = .seconds(5),
        extraStartupParameters: [(String, String)] = [], maximumConnections: Int? = nil,
        notificationChannel: String = PostgresStore.channel, backgroundLogger: Logger? = nil
    ) throws {
        let connectTimeout = connectTimeout ?? url.connectTimeout ?? .seconds(5)
        let maximumConnections = maximumConnections ?? url.poolMaxConnections ?? 20
        self.url = url
        self.connectTimeout = connectTimeout
        self.lockTimeout = lockTimeout
        self.answerPatience = answerPatience
        let parameters = Self.merged(
            [("lock_timeout", "\(Self.milliseconds(lockTimeout))ms"), ("application_name", url.applicationName ?? "rewind")],
            extraStartupParameters)
        self.notificationChannel = notificationChannel
        var configuration =
            if let socket = url.socketPath {
                PostgresClient.Configuration(
                    unixSocketPath: socket, username: url.username, password: url.password, database: url.database)
            } else {
                PostgresClient.Configuration(
                    host: url.host, port: url.port, username: url.username, password: url.password, database: url.database,
                    tls: try Self.clientTLS(url))
            }
        configuration.options.connectTimeout = connectTimeout
        configuration.options.additionalStartupParameters = parameters
        configuration.options.maximumConnections = maximumConnections
        let connects = PoolConnects(refusedFor: connectTimeout)
        self.connects = connects
        client = PostgresClient(
            configuration: configuration,
            backgroundLogger: Logger(label: "rewind.postgres.pool") { _ in PoolLogWatch(connects: connects, forward: backgroundLogger) })
        self.extraStartupParameters = parameters
    }

    private let extraStartupParameters: [(String, String)]

    /// Whether the server answered the last question asked of it (shared
    /// by the copies of this database, as the pool is).
    let liveness = ServerLiveness()

    /// What the pool's attempts to connect found (shared likewise).
    let connects: PoolConnects

    /// The name the pool's connections give the server (`application_name`:
    /// the URL's, else "rewind"); the listening connections add " listen".
    public var applicationName: String {
        extraStartupParameters.last { $0.0 == "application_name" }?.1 ?? "rewind"
    }

    /// `base` with `extra` after it, an entry of `extra` taking the place
    /// of `base`'s entries with the same name (the server would see both).
    static func merged(_ base: [(String, String)], _ extra: [(String, String)]) -> [(String, String)] {
        let names = Set(extra.map(\.0))
        return base.filter { !names.contains($0.0) } + extra
    }

    /// `duration` in whole milliseconds, at least 1 (PostgreSQL reads 0 as no limit).
    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000)
        return overflow ? Int64.max : max(1, whole + attoseconds / 1_000_000_000_000_000)
    }

    /// Runs the pool until the task is cancelled (or, as a service, until
    /// the graceful shutdown).
    public func run() async {
        await client.run()
    }

    /// Connects once, outside the pool, and logs in: a bad host, a server
    /// that does not answer, a wrong password or an unknown database is
    /// then one clear error within ``connectTimeout`` (twice that at most
    /// when the server accepts the connection and then says nothing).
    ///
    /// - Throws: ``StoreError/io(path:detail:)`` naming the database (never
    ///   its password) and what went wrong.
    public func check() async throws {
        try await withDirectConnection { connection, logger in
            _ = try await connection.answered("SELECT 1", logger: logger)
        }
    }

    /// Runs `body` on a connection of its own, outside the pool (which
    /// need not run yet), and closes it. Connecting fails as ``check()``
    /// says; `body`'s errors are its own, or a ``StoreError`` that names
    /// the database.
    func withDirectConnection<Result: Sendable>(
        _ body: (PostgresConnection, Logger) async throws -> Result
    ) async throws -> Result {
        let logger = Logger(label: "rewind.postgres.connection", factory: { _ in SwiftLogNoOpLogHandler() })
        let connection = try await connect(logger: logger)
        do {
            let result = try await body(connection, logger)
            try? await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw storeError(error)
        }
    }

    /// A new connection, logged in, within twice ``connectTimeout``, with
    /// `extraStartupParameters` sent besides the database's own.
    func connect(logger: Logger, extraStartupParameters extra: [(String, String)] = []) async throws -> PostgresConnection {
        do {
            return try await connectUnexplained(logger: logger, extraStartupParameters: extra)
        } catch {
            throw storeError(error)
        }
    }

    /// ``connect(logger:extraStartupParameters:)`` with postgres-nio's and
    /// NIO's errors as they are.
    func connectUnexplained(logger: Logger, extraStartupParameters extra: [(String, String)] = []) async throws -> PostgresConnection {
        var configuration =
            if let socket = url.socketPath {
                PostgresConnection.Configuration(
                    unixSocketPath: socket, username: url.username, password: url.password, database: url.database)
            } else {
                PostgresConnection.Configuration(
                    host: url.host, port: url.port, username: url.username, password: url.password, database: url.database,
                    tls: try connectionTLS())
            }
        configuration.options.connectTimeout = .seconds(connectTimeout.components.seconds)
        configuration.options.additionalStartupParameters = Self.merged(extraStartupParameters, extra)
        let limit = connectTimeout * 2
        let settings = configuration
        return try await withThrowingTaskGroup(of: PostgresConnection?.self) { group in
            group.addTask { try await PostgresConnection.connect(configuration: settings, id: 0, logger: logger) }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            let first = await group.nextResult()
            group.cancelAll()
            // A connection made after the other task decided (the time
            // ran out, or the wait was cancelled) is closed, not dropped
            // open: the group waits for that task anyway.
            while let rest = await group.nextResult() {
                if case .success(let connection?) = rest { try? await connection.close() }
            }
            switch first {
            case .success(let connection?): return connection
            case .failure(let error): throw error
            case .success(nil), nil:
                throw StoreError.io(path: url.redacted, detail: "no answer within \(Self.words(limit))")
            }
        }
    }

    /// `error` as the store throws it: the domain's and the store's own
    /// errors as they are, any other a ``StoreError/io(path:detail:)`` that
    /// names the database and says what went wrong.
    func storeError(_ error: any Error) -> any Error {
        if let error = error as? PostgresTransactionError,
            let inner = error.closureError ?? error.commitError ?? error.beginError {
            return storeError(inner)
        }
        switch error {
        case is TodoError, is HistoryError, is StoreError, is CancellationError: return error
        case let unknown as CommitOutcomeUnknown: return StoreError.outcomeUnknown(path: url.redacted, detail: unknown.description)
        default:
            return StoreError.io(
                path: url.redacted,
                detail: Self.explain(error, connectTimeout: connectTimeout.components.seconds, lockTimeout: lockTimeout, url: url))
        }
    }

    /// What went wrong talking to the server, in a few words (PostgreSQL's
    /// own message when the server said something, ours when a lock was
    /// waited for past `lockTimeout`, a ``StoreError/io(path:detail:)``'s detail).
    static func explain(
        _ error: any Error, connectTimeout seconds: Int64 = 5, lockTimeout: Duration = .seconds(10), url: DatabaseURL? = nil
    ) -> String {
        if let error = error as? StoreError, case .io(_, let detail) = error { return detail }
        guard let error = error as? PSQLError else {
            // postgres-nio's pool names its state in its own terms; a person reads what it means.
            if String(describing: error).contains("CircuitBreakerTripped") {
                return "the server has not been reachable for a minute or more; the connection pool tries again"
                    + " at growing intervals (up to about 15 seconds) until it answers"
            }
            return "\(error)"
        }
        if error.serverInfo?[.sqlState] == lockNotAvailable {
            return "another session of the database held the list for more than \(Self.words(lockTimeout))"
                + " (a transaction left open in another program?), so nothing was changed; try again, or end that session"
        }
        if let message = error.serverInfo?[.message] { return message }
        if let underlying = error.underlying {
            if let url, let tls = explainTLS(underlying, url) { return tls }
            if let socket = url?.socketPath, let io = underlying as? IOError, [ENOENT, ECONNREFUSED].contains(io.errnoCode) {
                return "no server listens on the socket \(socket); is it running, and is that its directory and port?"
            }
            if let connect = underlying as? NIOConnectionError {
                if connect.dnsAError != nil || connect.dnsAAAAError != nil { return "the host \(connect.host) is not known" }
                if let first = connect.connectionErrors.first { return explainSocket(first.error, seconds) }
            }
            return explainSocket(underlying, seconds)
        }
        switch error.code {
        case .serverClosedConnection: return "the server closed the connection"
        case .sslUnsupported: return "the server does not offer TLS (sslmode=\(url?.tls.rawValue ?? "require"))"
        case .authMechanismRequiresPassword: return "the server asks for a password and the URL holds none"
        default: return "\(error.code)"
        }
    }

    /// PostgreSQL's SQLSTATE for a lock not obtained within `lock_timeout`.
    static let lockNotAvailable = "55P03"

    /// "10 seconds", "1 second", "500 milliseconds".
    static func words(_ duration: Duration) -> String {
        let milliseconds = milliseconds(duration)
        if milliseconds % 1_000 == 0 {
            let seconds = milliseconds / 1_000
            return seconds == 1 ? "1 second" : "\(seconds) seconds"
        }
        return milliseconds == 1 ? "1 millisecond" : "\(milliseconds) milliseconds"
    }

    /// What a failed TLS handshake with the server of `url` means, when
    /// `error` is one: a certificate no trusted authority signed, or one
    /// that names another host, and what to change.
    private static func explainTLS(_ error: any Error, _ url: DatabaseURL) -> String? {
        let mode = "sslmode=\(url.tls.rawValue)"
        if error is NIOSSLExtraError, "\(error)".contains("hostname") || "\(error)".contains("Hostname") {
            return "the server's certificate does not name \(url.host) (\(mode)); name the host the certificate names,"
                + " or use sslmode=verify-ca to check only who signed it"
        }
        guard let tls = error as? NIOSSLError, case .handshakeFailed = tls else { return nil }
        if "\(tls)".contains("CERTIFICATE_VERIFY_FAILED") {
            let trusted = url.sslRootCertificate.map { "the authorities of sslrootcert “\($0)”" } ?? "the system's authorities"
            return "the server's certificate is not signed by \(trusted) (\(mode)); give its authority's certificate"
                + " with sslrootcert=FILE, or use sslmode=require to encrypt without checking the certificate"
        }
        return "the TLS handshake with the server failed (\(mode)): \(tls)"
    }

    private static func explainSocket(_ error: any Error, _ seconds: Int64) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        if let error = error as? ChannelError, case .connectTimeout = error {
            return "no answer within \(words(.seconds(seconds)))"
        }
        return "\(error)"
    }

    /// The TLS settings of `url`'s `sslmode`, as libpq's: `prefer` and
    /// `require` encrypt without checking the server's certificate;
    /// `verify-ca` checks that an authority of `sslrootcert` (else of the
    /// system) signed it; `verify-full` also that it names the URL's host
    /// (or, for an address, holds it). `nil` for `disable`.
    ///
    /// - Throws: ``StoreError/io(path:detail:)`` when `sslrootcert` cannot
    ///   be read as PEM certificates.
    static func tlsConfiguration(_ url: DatabaseURL) throws -> TLSConfiguration? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch url.tls {
        case .disable: return nil
        case .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if let file = url.sslRootCertificate {
            do {
                configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(file))
            } catch {
                throw StoreError.io(
                    path: url.redacted, detail: "sslrootcert “\(file)” cannot be read as PEM certificates (\(error))")
            }
        }
        return configuration
    }

    private static func clientTLS(_ url: DatabaseURL) throws -> PostgresClient.Configuration.TLS {
        guard let configuration = try tlsConfiguration(url) else { return .disable }
        return url.tls == .prefer ? .prefer(configuration) : .require(configuration)
    }

    private func connectionTLS() throws -> PostgresConnection.Configuration.TLS {
        guard let configuration = try Self.tlsConfiguration(url) else { return .disable }
        let context = try NIOSSLContext(configuration: configuration)
        return url.tls == .prefer ? .prefer(context) : .require(context)
    }
}
