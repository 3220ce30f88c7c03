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
    /// (its task waits on, harmlessly).
    ///
    /// On a connection of the pool (``AnswerContext/current`` set), a query
    /// that waits ``AnswerContext/patience`` has the server asked whether it
    /// still answers (``ServerLiveness``), again a patience after each
    /// answer; when it does not, the query is given up with
    /// ``ServerStoppedAnswering`` and its connection closed. An answer notes
    /// that the server answers.
    @discardableResult
    func answered(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        let context = AnswerContext.current
        let answer = Answer(patience: context?.patience)
        // Most answers come before the first look.
        let watch = WaitWatch.shared.watch { now in
            if answer.isGiven { return true }
            if self.isClosed { answer.give(.failure(ConnectionClosedBeforeAnswer())) }
            if let context, answer.questionDue(at: now) {
                Task {
                    let silence = await context.liveness.ask(context.question)
                    guard let silence else { return answer.askAgainLater() }
                    let stopped = ServerStoppedAnswering(waited: .now - answer.began, reason: silence.reason)
                    // Closed before the query's caller hears of it, while its lease is still held.
                    guard answer.hold(.failure(stopped)) else { return }
                    try? await self.close()
                    answer.handOn()
                }
            }
            return answer.isGiven
        }
        defer { WaitWatch.shared.end(watch) }
        return try await withCheckedThrowingContinuation { continuation in
            answer.wait(continuation)
            Task {
                do {
                    let rows = try await self.query(query, logger: logger)
                    answer.give(.success(rows))
                    context?.answered()
                } catch {
                    answer.give(.failure(error))
                }
            }
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

/// The answer to one query, given once: by the server or by the watch;
/// with the times at which the server is to be asked whether it answers.
private final class Answer: Sendable {
    private struct State {
        var continuation: CheckedContinuation<PostgresRowSequence, any Error>?
        var result: Result<PostgresRowSequence, any Error>?
        /// When the server is to be asked next (`nil` while a question is
        /// under way, or on a connection of one's own).
        var nextQuestion: ContinuousClock.Instant?
        /// Whether the result is given but not yet handed on.
        var held = false
    }

    private let state: Mutex<State>
    /// When the query was sent.
    let began: ContinuousClock.Instant
    private let patience: Duration?

    /// An answer awaited from now, the server asked once it waited `patience`.
    init(patience: Duration?) {
        let began = ContinuousClock.now
        self.began = began
        self.patience = patience
        state = Mutex(State(nextQuestion: patience.map { began + $0 }))
    }

    /// Whether the answer has been given.
    var isGiven: Bool { state.withLock { $0.result != nil } }

    /// Keeps `continuation`, resumed when the answer is given.
    func wait(_ continuation: CheckedContinuation<PostgresRowSequence, any Error>) {
        let given = state.withLock { state -> Result<PostgresRowSequence, any Error>? in
            guard let result = state.result, !state.held else {
                state.continuation = continuation
                return nil
            }
            return result
        }
        if let given { continuation.resume(with: given) }
    }

    /// Takes `result` as the answer, unless one was given already, without
    /// handing it on until ``handOn()``; whether it did.
    func hold(_ result: Result<PostgresRowSequence, any Error>) -> Bool {
        state.withLock { state in
            guard state.result == nil else { return false }
            state.result = result
            state.held = true
            return true
        }
    }

    /// Hands on the answer that ``hold(_:)`` took.
    func handOn() {
        let (waiting, result) = state.withLock { state in
            state.held = false
            defer { state.continuation = nil }
            return (state.continuation, state.result)
        }
        if let waiting, let result { waiting.resume(with: result) }
    }

    /// Gives the answer, unless one was given already; whether it did.
    @discardableResult
    func give(_ result: Result<PostgresRowSequence, any Error>) -> Bool {
        let (given, waiting) = state.withLock { state -> (Bool, CheckedContinuation<PostgresRowSequence, any Error>?) in
            guard state.result == nil else { return (false, nil) }
            state.result = result
            defer { state.continuation = nil }
            return (true, state.continuation)
        }
        waiting?.resume(with: result)
        return given
    }

    /// Whether the server is to be asked at `now`: once each time the
    /// query has waited another patience, while no answer was given.
    func questionDue(at now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in
            guard state.result == nil, let next = state.nextQuestion, now >= next else { return false }
            state.nextQuestion = nil
            return true
        }
    }

    /// The server answered the question: asks again a patience from now.
    func askAgainLater() {
        guard let patience else { return }
        state.withLock { $0.nextQuestion = .now + patience }
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
