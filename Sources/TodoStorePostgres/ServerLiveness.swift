import Foundation
import Logging
import NIOCore
import PostgresNIO
import Synchronization
import TodoStore

/// Whether the server still answers, asked on a connection of one's own
/// when a query of the pool has waited long for its answer.
///
/// A server that stops answering without ending its connections (its
/// machine frozen or cut off from the network, a process stopped) leaves a
/// query waiting for as long as the system keeps the connection open, which
/// can be a quarter of an hour, and every operation queued behind it with
/// it. A query that waits is not enough to tell: one that waits for a lock,
/// or that has much to do, waits too. So a query that has waited
/// ``PostgresTodoDatabase/answerPatience`` for its answer has the server
/// asked directly: a new connection that logs in and is answered `SELECT 1`
/// within the connect timeout shows it answers, and the query waits on
/// (and asks again a patience later); one that gets no answer, or cannot
/// connect, shows it does not, and the query is given up (its connection
/// closed) with ``ServerStoppedAnswering``.
///
/// One question is asked at a time, however many queries wait, and an
/// answer (or a silence) less than ``freshFor`` old stands: a server slow
/// under load is asked at most once a second. For as long as a silence is
/// fresh, a connection asked of the pool fails at once
/// (``recentSilence(at:)``); after that, requests use the pool again, and
/// any query of the pool that is answered ends the silence.
final class ServerLiveness: Sendable {
    /// How long an answer or a silence stands before the server is asked again.
    let freshFor: Duration

    /// No question asked yet; an answer will stand for `freshFor`.
    init(freshFor: Duration = .seconds(1)) {
        self.freshFor = freshFor
    }

    /// The server did not answer a question, for the reason given.
    struct Silence: Sendable {
        /// When the question was asked.
        let since: ContinuousClock.Instant
        /// Why it counts as no answer (no answer in time, a refused connection).
        let reason: String
    }

    private struct State {
        var question: Task<String?, Never>?
        /// When the question under way, or the last one, was asked.
        var questionAsked: ContinuousClock.Instant?
        /// When the last question ended.
        var ended: ContinuousClock.Instant?
        /// The last question's silence, while no question or query since was answered.
        var silence: Silence?
        /// How many questions were asked.
        var asked = 0
    }

    private let state = Mutex(State())
    /// Whether a silence is noted (read without the lock at every answer).
    private let silent = Atomic(false)

    /// The server's silence, when the last question got no answer and no
    /// query was answered since.
    var silence: Silence? { state.withLock { $0.silence } }

    /// How many questions were asked (for the tests).
    var questionsAsked: Int { state.withLock { $0.asked } }

    /// The silence of a question that ended less than ``freshFor`` before `now`.
    func recentSilence(at now: ContinuousClock.Instant = .now) -> Silence? {
        guard silent.load(ordering: .relaxed) else { return nil }
        return state.withLock { state in
            guard let ended = state.ended, now - ended < freshFor else { return nil }
            return state.silence
        }
    }

    /// Notes that the server answered a query of the pool: a silence is over.
    func answered() {
        guard silent.load(ordering: .relaxed) else { return }
        silent.store(false, ordering: .relaxed)
        state.withLock { $0.silence = nil }
    }

    /// Asks the server with `question`, which answers why the server did
    /// not answer, or `nil` when it did; a question under way is waited
    /// for, and an answer or a silence less than ``freshFor`` old stands.
    ///
    /// - Returns: The silence, or `nil` when the server answers.
    func ask(_ question: @escaping @Sendable () async -> String?) async -> Silence? {
        let now = ContinuousClock.now
        let running = state.withLock { state -> Task<String?, Never>? in
            if let running = state.question { return running }
            if let ended = state.ended, now - ended < freshFor { return nil }
            let running = Task { await question() }
            state.question = running
            state.questionAsked = now
            state.asked += 1
            return running
        }
        guard let running else { return state.withLock { $0.silence } }
        let reason = await running.value
        return state.withLock { state in
            if state.question == running {
                state.question = nil
                state.ended = .now
                state.silence = reason.map { Silence(since: state.questionAsked ?? now, reason: $0) }
                silent.store(state.silence != nil, ordering: .relaxed)
            }
            return state.silence
        }
    }
}

/// The server stopped answering a query: it waited
/// ``PostgresTodoDatabase/answerPatience``, and the server, asked on a new
/// connection, did not answer either. The query's connection was closed;
/// whether a change it was making was saved is not known.
struct ServerStoppedAnswering: Error, CustomStringConvertible {
    /// How long the query had waited when its wait was given up.
    let waited: Duration
    /// Why the question counts as no answer.
    let reason: String

    var description: String { "the server stopped answering: \(circumstances)" }

    /// How it was found: "a query had no answer for 10 seconds, nor a new
    /// connection: no answer within 5 seconds".
    var circumstances: String {
        let seconds = max(1, (waited + .milliseconds(500)).components.seconds)
        return "a query had no answer for \(PostgresTodoDatabase.words(.seconds(seconds))), nor a new connection: \(reason)"
    }
}

/// What the queries of a connection lent by the pool need to know of their
/// database: when and how to ask whether the server answers, and where to
/// note that it answered. Set for the time of a lease
/// (``PostgresTodoDatabase/withPooledConnection(isolation:_:)``); `nil`
/// on connections of one's own.
struct AnswerContext: Sendable {
    /// The context of the queries of the task's lease.
    @TaskLocal static var current: AnswerContext?

    /// How long a query waits before the server is asked.
    let patience: Duration
    /// Whether the server answers.
    let liveness: ServerLiveness
    /// What the pool's attempts to connect found.
    let connects: PoolConnects
    /// The question: why the server did not answer, or `nil`.
    let question: @Sendable () async -> String?

    /// Notes that a query was answered: the server answers.
    func answered() {
        liveness.answered()
        connects.answered()
    }
}

extension PostgresTodoDatabase {
    /// The context of the queries on a connection of this database's pool.
    var answerContext: AnswerContext {
        let database = self
        return AnswerContext(patience: answerPatience, liveness: liveness, connects: connects) { await database.silence() }
    }

    /// Asks the server, on a new connection outside the pool, whether it
    /// answers: `nil` when it logs in and answers `SELECT 1` within
    /// ``connectTimeout``, or when it refuses in words of its own (too many
    /// connections, say: it is there); else why not. Never later than
    /// ``connectTimeout``: a connection that hangs is closed then.
    func silence() async -> String? {
        let limit = connectTimeout
        let question = DirectQuestion()
        let database = self
        return await withCheckedContinuation { continuation in
            question.wait(continuation)
            Task {
                let logger = Logger(label: "rewind.postgres.liveness", factory: { _ in SwiftLogNoOpLogHandler() })
                do {
                    let connection = try await database.connectUnexplained(logger: logger)
                    guard question.keep(connection) else { return try? await connection.close() }
                    let rows = try await AnswerContext.$current.withValue(nil) {
                        try await connection.answered("SELECT 1", logger: logger)
                    }
                    for try await _ in rows {}
                    question.give(nil)
                } catch {
                    question.give(Self.answered(error) ? nil : Self.explain(error, connectTimeout: limit.components.seconds))
                }
                await question.close()
            }
            Task {
                try? await Task.sleep(for: limit)
                question.give("no answer within \(Self.words(limit))")
                await question.close()
            }
        }
    }

    /// Whether `error`, of a connection being made, is the server's own
    /// answer (an error it sent, with its SQLSTATE), which shows that it answers.
    static func answered(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        return error.serverInfo?[.sqlState] != nil
    }
}

/// A question to the server on a connection of its own, answered once: by
/// the server or by the clock, which then closes the connection (a query
/// on it would otherwise wait as long as the system keeps it open).
private final class DirectQuestion: Sendable {
    private struct State {
        var continuation: CheckedContinuation<String?, Never>?
        var answer: String??
        var connection: PostgresConnection?
        var closed = false
    }

    private let state = Mutex(State())

    /// Keeps `continuation`, resumed with the answer.
    func wait(_ continuation: CheckedContinuation<String?, Never>) {
        let given = state.withLock { state -> String?? in
            guard let answer = state.answer else {
                state.continuation = continuation
                return nil
            }
            return answer
        }
        if let given { continuation.resume(returning: given) }
    }

    /// Gives the answer, unless one was given already.
    func give(_ answer: String?) {
        let waiting = state.withLock { state -> CheckedContinuation<String?, Never>? in
            guard state.answer == nil else { return nil }
            state.answer = .some(answer)
            defer { state.continuation = nil }
            return state.continuation
        }
        waiting?.resume(returning: answer)
    }

    /// Keeps `connection` to close it later; `false` when the question is
    /// over already (the caller closes it).
    func keep(_ connection: PostgresConnection) -> Bool {
        state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.connection = connection
            return true
        }
    }

    /// Closes the connection, once.
    func close() async {
        let connection = state.withLock { state -> PostgresConnection? in
            state.closed = true
            defer { state.connection = nil }
            return state.connection
        }
        try? await connection?.close()
    }
}
