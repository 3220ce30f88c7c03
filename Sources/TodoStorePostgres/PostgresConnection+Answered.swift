import Foundation
import Logging
import PostgresNIO
import Synchronization

extension PostgresConnection {
    /// Sends `query` and waits for the server's answer, as
    /// `query(_:logger:)` does, but throws when the connection closes while
    /// the answer is awaited.
    ///
    /// postgres-nio writes a query to its channel without a promise: a query
    /// written just as the server closes the connection (a restart, an
    /// outage) is dropped and never answered. Awaited directly, it would hold
    /// up the store's operation, and every operation queued behind it, for
    /// good. Here the query is sent by a task of its own, and the process's
    /// ``WaitWatch`` looks at the connection every tick while the answer is
    /// awaited; a query left unanswered on a closed connection is given up
    /// (its task waits on, harmlessly). On a connection of the pool closed
    /// because the server stopped answering, the error is
    /// ``ServerStoppedAnswering``.
    @discardableResult
    func answered(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        let answer = Answer()
        // Most answers come before the first look.
        let watch = WaitWatch.shared.watch { _ in
            if answer.isGiven { return true }
            if self.isClosed { answer.give(.failure(ConnectionClosedBeforeAnswer())) }
            return answer.isGiven
        }
        defer { WaitWatch.shared.end(watch) }
        do {
            return try await withCheckedThrowingContinuation { continuation in
                answer.wait(continuation)
                Task {
                    do {
                        answer.give(.success(try await self.query(query, logger: logger)))
                    } catch {
                        answer.give(.failure(error))
                    }
                }
            }
        } catch {
            // The connection was closed because the server stopped answering.
            if let gaveUp = AnswerWait.current?.gaveUp { throw gaveUp }
            throw error
        }
    }
}

extension PostgresConnection {
    /// Returns once the server has made the commit of the statement that
    /// this connection ran last outside a transaction.
    ///
    /// Such a statement commits when the server reaches the `Sync` after
    /// it, once its answer (rows, `CommandComplete`) is written; then it
    /// says `ReadyForQuery`. postgres-nio hands the answer on at
    /// `CommandComplete`, and does not tell a commit that failed after it
    /// (the server ended the connection within the commit, say while it
    /// waited to queue a `NOTIFY`) from one that was made: it only closes
    /// the connection. It sends the next query after `ReadyForQuery`, so a
    /// query answered now shows that the commit was made.
    ///
    /// - Throws: ``CommitNotConfirmed`` when that query is not answered:
    ///   whether the statement committed must then be asked.
    func confirmCommit(logger: Logger) async throws {
        do {
            for try await _ in try await answered("SELECT 1", logger: logger) {}
        } catch {
            throw CommitNotConfirmed(cause: error)
        }
    }
}

/// The answer to one query, given once: by the server or by the watch.
private final class Answer: Sendable {
    private struct State {
        var continuation: CheckedContinuation<PostgresRowSequence, any Error>?
        var result: Result<PostgresRowSequence, any Error>?
    }

    private let state = Mutex(State())

    /// Whether the answer has been given.
    var isGiven: Bool { state.withLock { $0.result != nil } }

    /// Keeps `continuation`, resumed when the answer is given.
    func wait(_ continuation: CheckedContinuation<PostgresRowSequence, any Error>) {
        let given = state.withLock { state -> Result<PostgresRowSequence, any Error>? in
            guard let result = state.result else {
                state.continuation = continuation
                return nil
            }
            return result
        }
        if let given { continuation.resume(with: given) }
    }

    /// Gives the answer, unless one was given already.
    func give(_ result: Result<PostgresRowSequence, any Error>) {
        let waiting = state.withLock { state -> CheckedContinuation<PostgresRowSequence, any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.continuation = nil }
            return state.continuation
        }
        waiting?.resume(with: result)
    }
}

/// The connection closed before the server answered a query.
struct ConnectionClosedBeforeAnswer: Error, CustomStringConvertible {
    var description: String { "the server closed the connection before it answered" }
}

/// The pool lent a connection the server had already closed; nothing was
/// sent on it.
struct ConnectionClosedBeforeUse: Error, CustomStringConvertible {
    var description: String { "the server closed the connection" }
}

/// The connection failed before the server confirmed the commit of a
/// statement run outside a transaction (``PostgresConnection/confirmCommit(logger:)``):
/// it may or may not have committed.
struct CommitNotConfirmed: Error, CustomStringConvertible {
    /// Why the confirmation failed.
    let cause: any Error
    var description: String { "the connection failed before the server confirmed the commit: \(String(reflecting: cause))" }
}
