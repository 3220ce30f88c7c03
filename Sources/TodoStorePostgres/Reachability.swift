import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import TodoStore
import Synchronization

/// Whether a database's server can be reached, asked of it directly when a
/// connection of the pool is slow to come: while the server is down (a
/// restart, an outage), `PostgresClient` keeps a request for a connection
/// waiting as it tries again, at growing intervals, where a connection of
/// one's own is refused at once. A request then fails within
/// ``probeAfter`` or so, saying why, instead of after the whole connect
/// timeout, and for ``freshFor`` after a refusal the requests that follow
/// fail at once, without waiting for the pool.
final class Reachability: Sendable {
    /// How long a connection of the pool is waited for before the server is asked.
    static let probeAfter = Duration.milliseconds(250)
    /// How long the server's refusal is taken as its answer.
    static let freshFor = Duration.seconds(1)

    private struct State {
        var refused: (error: any Error, at: ContinuousClock.Instant)?
        var probe: Task<(any Error)?, Never>?
        /// When the last question ended with a connection made.
        var reached: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    /// The error of a connection refused less than ``freshFor`` before `now`.
    func recentRefusal(at now: ContinuousClock.Instant = .now) -> (any Error)? {
        state.withLock { state in
            guard let refused = state.refused, now - refused.at < Self.freshFor else { return nil }
            return refused.error
        }
    }

    /// Asks the server with `connect` (one question at a time: a question
    /// under way is waited for) and answers why it refused, or `nil` when
    /// it connected.
    /// A server reached less than ``freshFor`` ago is not asked again: a
    /// pool slow under load is waited for, with no more than one extra
    /// connection a second.
    func probe(_ connect: @escaping @Sendable () async -> (any Error)?) async -> (any Error)? {
        let probe = state.withLock { state -> Task<(any Error)?, Never>? in
            if let running = state.probe { return running }
            if let reached = state.reached, ContinuousClock.now - reached < Self.freshFor { return nil }
            let probe = Task { await connect() }
            state.probe = probe
            return probe
        }
        guard let probe else { return nil }
        let error = await probe.value
        state.withLock { state in
            if state.probe == probe { state.probe = nil }
            state.refused = error.map { ($0, .now) }
            if error == nil { state.reached = .now }
        }
        return error
    }
}

/// A flag set once, from any thread.
final class Once: Sendable {
    private let done = Atomic(false)

    /// `true` the first time only.
    func first() -> Bool {
        !done.exchange(true, ordering: .relaxed)
    }
}

extension PostgresTodoDatabase {
    /// Why a connection of one's own, outside the pool, cannot be made
    /// because the server is not there (as ``check()`` says it), or `nil`
    /// when one is made (and closed), or fails for another reason: a server
    /// that answers but has no room for another connection ("too many
    /// clients"), or refuses this login, may still serve the pool's, and
    /// one slow to answer (a machine under load) is waited for as before.
    func refusal() async -> (any Error)? {
        let logger = Logger(label: "rewind.postgres.probe", factory: { _ in SwiftLogNoOpLogHandler() })
        do {
            let connection = try await connectUnexplained(logger: logger)
            try? await connection.close()
            return nil
        } catch {
            return Self.meansNotThere(error) ? storeError(error) : nil
        }
    }

    /// Whether `error`, of a connection being made, says at once that no
    /// server is there: the connection refused, the socket missing, the
    /// host unknown or unreachable, or a server starting or stopping
    /// (SQLSTATE 57P03). Not a timeout: a slow server is still there.
    static func meansNotThere(_ error: any Error) -> Bool {
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil { return true }
            return !error.connectionErrors.isEmpty && error.connectionErrors.allSatisfy { meansNotThere($0.error) }
        }
        if let error = error as? IOError { return [ECONNREFUSED, ENOENT, EHOSTUNREACH, ENETUNREACH].contains(error.errnoCode) }
        guard let error = error as? PSQLError else { return false }
        if let state = error.serverInfo?[.sqlState] { return state == "57P03" }
        return error.underlying.map(meansNotThere) ?? false
    }
}
