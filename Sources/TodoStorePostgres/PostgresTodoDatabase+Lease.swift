import Foundation
import PostgresNIO
import TodoStore

/// Connections of the pool with a bounded wait. While the server cannot be
/// reached (a restart, an outage), `PostgresClient` keeps a request for a
/// connection waiting until it connects again, or until its circuit breaker
/// trips after a minute; an operation then fails after ``connectTimeout``
/// instead, with an error that says so, and the operations queued behind
/// it on the instance are not held up longer. Once the server is back, the
/// pool connects again within its own back-off (under a second for a
/// restart that takes a few). While the pool's own attempts have been
/// refused for a while, a request fails sooner, with the refusal's reason
/// (``PoolConnects``).
///
/// The queries on a connection lent watch for a server that stops
/// answering: one that waits ``answerPatience`` for its answer has the
/// server asked, on a connection of its own, whether it still answers
/// (``ServerLiveness``), and when it does not, the query is given up and
/// the connection closed.
extension PostgresTodoDatabase {
    /// Runs `body` with a connection of the pool, waiting for one at most
    /// ``connectTimeout``; `body` itself runs as long as the server answers
    /// (see ``ServerLiveness``). The connection goes back to the pool when
    /// `body` returns or throws.
    ///
    /// The pool may still lend a connection the server has just closed (it
    /// learns of the close on its event loop, a moment later): such a one
    /// is handed back unused, and another asked for, within the same wait.
    ///
    /// - Throws: `body`'s errors; the pool's when it cannot lend one;
    ///   ``StoreError/io(path:detail:)`` when no connection came in time
    ///   or the server has refused the pool's connections for a while,
    ///   or did not answer a question asked of it a moment ago;
    ///   ``ConnectionClosedBeforeUse`` when the pool lent
    ///   only closed ones until then; or ``ServerStoppedAnswering`` when
    ///   the server stopped answering `body`'s query.
    func withPooledConnection<Value: Sendable>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        if let silence = liveness.recentSilence() {
            throw StoreError.io(path: url.redacted, detail: "the server does not answer (\(silence.reason)); is it running, and can it be reached?")
        }
        let deadline = ContinuousClock.now + connectTimeout
        var retrying = RetryingWhenConnectionsEnd(within: connectTimeout)
        while true {
            var lentClosed = false
            do {
                return try await withLeasedConnection(until: deadline, isolation: isolation) { connection in
                    guard !connection.isClosed else {
                        lentClosed = true
                        throw ConnectionClosedBeforeUse()
                    }
                    return try await body(connection)
                }
            } catch is ConnectionClosedBeforeUse where lentClosed {
                guard await retrying.pause() else { throw ConnectionClosedBeforeUse() }
            }
        }
    }

    /// Runs `body` with a connection of the pool, waiting for one until
    /// `deadline`, as ``withPooledConnection(isolation:_:)`` says.
    private func withLeasedConnection<Value: Sendable>(
        until deadline: ContinuousClock.Instant, isolation: isolated (any Actor)?,
        _ body: (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        let (leases, lease) = AsyncStream.makeStream(of: Result<PostgresConnection, any Error>.self)
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        let client = client
        let limit = connectTimeout
        return try await withThrowingTaskGroup(of: Void.self, isolation: isolation) { group in
            // Holds the lease until `body` is done with the connection.
            group.addTask {
                do {
                    try await client.withConnection { connection in
                        lease.yield(.success(connection))
                        for await _ in released {}
                    }
                } catch {
                    lease.yield(.failure(error))
                }
                lease.finish()
            }
            // The process's watch ends the wait at the deadline, or once
            // the server has refused the pool's connections for a while.
            let refuseAt = ContinuousClock.now + PoolConnects.patience
            let (connects, path) = (connects, url.redacted)
            let watch = WaitWatch.shared.watch { now in
                if now >= refuseAt, let refusal = connects.refusal(at: now) {
                    lease.yield(.failure(StoreError.io(path: path, detail: refusal)))
                    lease.finish()
                    return true
                }
                guard now >= deadline else { return false }
                lease.finish()
                return true
            }
            defer {
                release.finish()
                // Ends a request for a connection still waiting.
                group.cancelAll()
            }
            var waiting = leases.makeAsyncIterator()
            let first = await waiting.next()
            WaitWatch.shared.end(watch)
            guard let leased = first else {
                let seconds = limit.components.seconds
                throw StoreError.io(
                    path: url.redacted,
                    detail: "no connection to the server within \(seconds) second\(seconds == 1 ? "" : "s"); is it running?")
            }
            let connection = try leased.get()
            return try await AnswerContext.$current.withValue(answerContext) { try await body(connection) }
        }
    }

    /// Runs `body` in a transaction on a connection of the pool (waiting
    /// for one as ``withPooledConnection(isolation:_:)`` says), committed
    /// when it returns and rolled back when it throws.
    ///
    /// Unlike `PostgresConnection.withTransaction`, it sends no `ROLLBACK`
    /// on a connection that closed (the server rolled the transaction
    /// back as it ended it): a query on a closed connection is never
    /// answered, and would hold up every operation of the store after it.
    ///
    /// With `snapshot`, the transaction only reads, every statement of it
    /// from one snapshot (`REPEATABLE READ`), begun in the same round trip.
    ///
    /// - Throws: What `withPooledConnection` throws, `body`'s errors, or the
    ///   server's for `BEGIN` or `COMMIT`.
    func withPooledTransaction<Value: Sendable>(
        logger: Logger, snapshot: Bool = false, isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        try await withPooledConnection(isolation: isolation) { connection in
            try await connection.answered(snapshot ? "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY" : "BEGIN", logger: logger)
            let value: Value
            do {
                value = try await body(connection)
            } catch {
                if !connection.isClosed { _ = try? await connection.answered("ROLLBACK", logger: logger) }
                throw error
            }
            try await connection.answered("COMMIT", logger: logger)
            return value
        }
    }
}
