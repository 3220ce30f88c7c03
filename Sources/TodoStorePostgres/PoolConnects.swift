import Foundation
import Logging
import Synchronization

/// What the pool's own attempts to connect found, read from its log: while
/// the server refuses every connection (it is stopped, its socket is gone,
/// it is shutting down, or it refuses the login), `PostgresClient` keeps a
/// request for a connection waiting as it tries again at growing
/// intervals. Once the refusals have lasted ``refusedFor`` (the connect
/// timeout), with no query answered since and the last of them less than
/// ``staleAfter`` old, a request that has waited ``patience`` for a
/// connection fails at once with the refusal's reason, instead of after
/// the whole connect timeout; during a restart shorter than the connect
/// timeout, requests wait for the server as before.
///
/// Nothing here connects: the pool's log says what its attempts found (a
/// question of one's own, on a connection of one's own, would add
/// connections where the pool is already slow to lend them).
final class PoolConnects: Sendable {
    /// How long the refusals last before requests stop waiting for them.
    let refusedFor: Duration
    /// How long a request waits for a connection before a refusal ends its wait.
    static let patience = Duration.milliseconds(250)
    /// How old the last refusal may be: while the server is away, the pool
    /// tries again at growing intervals (its circuit breaker trips after a
    /// minute, before they grow past this); refusals older than that are
    /// over, and the next begins anew.
    static let staleAfter = Duration.seconds(20)

    /// Refusals count once they have lasted `refusedFor`.
    init(refusedFor: Duration) {
        self.refusedFor = refusedFor
    }

    private struct State {
        /// When the refusals began (none since the last query answered).
        var since: ContinuousClock.Instant?
        /// When the last refusal came.
        var last: ContinuousClock.Instant?
        /// The last refusal's reason.
        var reason: Refusal?
    }

    /// Why the server refused a connection.
    struct Refusal: Sendable, Equatable {
        /// In words: "connection refused", or the server's own message.
        let words: String
        /// Whether the server said it (a refused login, say), rather than
        /// the system (nothing listens).
        let saidByTheServer: Bool
    }

    private let state = Mutex(State())
    /// Whether any refusal is noted (read without the lock on every answer).
    private let refused = Atomic(false)

    /// Notes a failed attempt of the pool, described by postgres-nio's
    /// error as logged; an attempt that failed for another reason than a
    /// refusal (a timeout: a slow server is still there; too many
    /// connections: it answers) is not noted.
    func attemptFailed(_ description: String, at now: ContinuousClock.Instant = .now) {
        guard let reason = Self.refusal(in: description) else { return }
        state.withLock { state in
            if let last = state.last, now - last > Self.staleAfter { state.since = nil }
            state.since = state.since ?? now
            state.last = now
            state.reason = reason
        }
        refused.store(true, ordering: .relaxed)
    }

    /// Notes that the server answered a query: the refusals are over.
    func answered() {
        guard refused.load(ordering: .relaxed) else { return }
        refused.store(false, ordering: .relaxed)
        state.withLock { $0 = State() }
    }

    /// Why a request waiting for a connection is to fail at `now`: the
    /// refusals have lasted ``refusedFor``, and the last is less than
    /// ``staleAfter`` old. `nil` when not.
    func refusal(at now: ContinuousClock.Instant = .now) -> String? {
        guard refused.load(ordering: .relaxed) else { return nil }
        return state.withLock { state in
            guard let since = state.since, let last = state.last, let reason = state.reason, now - since >= refusedFor,
                now - last <= Self.staleAfter
            else { return nil }
            let seconds = PostgresTodoDatabase.words(.seconds((now - since).components.seconds))
            return reason.saidByTheServer
                ? "the server has refused every connection for \(seconds): \(reason.words)"
                : "the server has refused every connection for \(seconds) (\(reason.words)); is it running?"
        }
    }

    /// The refusal that postgres-nio's error, as logged, describes, or
    /// `nil` when it describes no refusal.
    static func refusal(in description: String) -> Refusal? {
        if description.contains("Connection refused") { return Refusal(words: "connection refused", saidByTheServer: false) }
        if description.contains("No such file or directory") {
            return Refusal(words: "no server listens on the socket", saidByTheServer: false)
        }
        guard let state = description.firstMatch(of: #/sqlState: ([0-9A-Z]{5})/#)?.1, state != tooManyConnections else { return nil }
        let message = description.firstMatch(of: #/message: (.+?), [a-zA-Z]+: /#)?.1
        return Refusal(words: message.map(String.init) ?? "the server refused the login (SQLSTATE \(state))", saidByTheServer: true)
    }

    /// The server's SQLSTATE for too many connections: it is there, and
    /// serves the pool's other connections.
    private static let tooManyConnections = "53300"
}

/// The pool's log handler: notes its failed attempts to connect in
/// ``PoolConnects``, and passes every event on to `forward` when there is one.
struct PoolLogWatch: LogHandler {
    /// Where failed attempts are noted.
    let connects: PoolConnects
    /// The log that the pool's events go on to, if any.
    let forward: Logger?
    /// The handler's own metadata (the pool's events carry theirs).
    var metadata: Logger.Metadata = [:]
    /// Failed attempts are logged at `info`; lower when `forward` wants more.
    var logLevel: Logger.Level

    /// Watches for `connects`, passing events on to `forward`.
    init(connects: PoolConnects, forward: Logger?) {
        self.connects = connects
        self.forward = forward
        logLevel = min(.info, forward?.logLevel ?? .info)
    }

    /// The handler's metadata value for `key`.
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Notes a failed attempt, and passes `event` on.
    func log(event: LogEvent) {
        if event.message.description == "Connection creation failed", let error = event.metadata?["psql_error"] {
            connects.attemptFailed("\(error)")
        }
        if let forward, event.level >= forward.logLevel {
            // The pool's own metadata (set on its logger) goes with the event's.
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            forward.log(
                level: event.level, event.message, metadata: merged.isEmpty ? nil : merged, source: event.source, file: event.file,
                function: event.function, line: event.line)
        }
    }
}
