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
/// ``PostgresTodoDatabase/answerPatience`` has the server asked directly:
/// a new connection that logs in and is answered `SELECT 1` within the
/// connect timeout shows it answers, and the query waits on; one that gets
/// no answer, or cannot connect, shows it does not, and the query is given
/// up (its connection closed) with an error that says so.
///
/// One question is asked at a time, however many queries wait, and an
/// answer (or a silence) less than ``freshFor`` old stands: a server slow
/// under load is asked at most once a second. While the last question got
/// no answer, each connection asked of the pool has the server asked again
/// first, and fails when it still does not answer, instead of waiting on a
/// connection to a server that does not answer.
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
        /// When the last question ended.
        var ended: ContinuousClock.Instant?
        /// The last question's silence, while no question since was answered.
        var silence: Silence?
        /// How many questions were asked.
        var asked = 0
    }

    private let state = Mutex(State())

    /// The server's silence, when the last question got no answer.
    var silence: Silence? { state.withLock { $0.silence } }

    /// How many questions were asked (for the tests).
    var questionsAsked: Int { state.withLock { $0.asked } }

    /// Asks the server with `question`, which answers why the server did
    /// not answer, or `nil` when it did; a question under way is waited
    /// for, and an answer or a silence less than ``freshFor`` old stands.
    ///
    /// - Returns: The silence, or `nil` when the server answers.
    func ask(_ question: @escaping @Sendable () async -> String?) async -> Silence? {
        let asked = ContinuousClock.now
        let running = state.withLock { state -> Task<String?, Never>? in
            if let running = state.question { return running }
            if let ended = state.ended, asked - ended < freshFor { return nil }
            let running = Task { await question() }
            state.question = running
            state.asked += 1
            return running
        }
        guard let running else { return state.withLock { $0.silence } }
        let reason = await running.value
        return state.withLock { state in
            if state.question == running {
                state.question = nil
                state.ended = .now
                state.silence = reason.map { state.silence ?? Silence(since: asked, reason: $0) }
            }
            return state.silence
        }
    }
}

/// The server stopped answering a query: it waited
/// ``PostgresTodoDatabase/answerPatience``, and the server, asked on a new
/// connection, did not answer either. The query's connection was closed;
/// whether a change it was committing was made is not known.
struct ServerStoppedAnswering: Error, CustomStringConvertible {
    /// How long the query had waited when the server was asked.
    let waited: Duration
    /// Why the question counts as no answer.
    let reason: String

    var description: String { "the server stopped answering: \(circumstances)" }

    /// How it was found: "a query had waited 5 seconds for its answer when
    /// a new connection was tried: no answer within 5 seconds".
    var circumstances: String {
        let seconds = max(1, (waited + .milliseconds(500)).components.seconds)
        return "a query had waited \(PostgresTodoDatabase.words(.seconds(seconds))) for its answer when a new connection was tried: \(reason)"
    }
}

/// A query's wait for its answer, while the server may be asked whether it
/// still answers (``ServerLiveness``).
final class AnswerWait: Sendable {
    /// The wait of the connection that the task's queries run on, while it
    /// is watched: a query that fails because the connection was closed
    /// for the server's silence throws ``gaveUp`` instead of the closed
    /// connection's error.
    @TaskLocal static var current: AnswerWait?

    private struct State {
        /// When the server is to be asked next (`nil` while a question is under way).
        var nextQuestion: ContinuousClock.Instant?
        /// Set when the query was given up.
        var gaveUp: ServerStoppedAnswering?
    }

    private let state: Mutex<State>
    private let began = ContinuousClock.now
    private let patience: Duration

    /// A wait that began now, and asks the server once it lasts `patience`.
    init(patience: Duration) {
        self.patience = patience
        state = Mutex(State(nextQuestion: began + patience))
    }

    /// Why the query was given up, when it was.
    var gaveUp: ServerStoppedAnswering? { state.withLock { $0.gaveUp } }

    /// Whether the server is to be asked at `now`: `true` once each time the
    /// wait has lasted another ``patience`` since the last answer.
    func questionDue(at now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in
            guard let next = state.nextQuestion, now >= next else { return false }
            state.nextQuestion = nil
            return true
        }
    }

    /// Notes what the question found: the wait goes on while the server
    /// answers; when it does not, the query is given up, and `true` returned.
    func note(_ silence: ServerLiveness.Silence?) -> Bool {
        state.withLock { state in
            guard let silence else {
                state.nextQuestion = .now + patience
                return false
            }
            state.gaveUp = ServerStoppedAnswering(waited: silence.since - began, reason: silence.reason)
            return true
        }
    }
}

extension PostgresTodoDatabase {
    /// Asks the server, on a new connection outside the pool, whether it
    /// answers: `nil` when it logs in and answers `SELECT 1` within
    /// ``connectTimeout``, or when it refuses in words of its own (too many
    /// connections, say: it is there); else why not.
    func silence() async -> String? {
        let logger = Logger(label: "rewind.postgres.liveness", factory: { _ in SwiftLogNoOpLogHandler() })
        let limit = connectTimeout
        let database = self
        return await withTaskGroup(of: String??.self) { group in
            group.addTask {
                do {
                    let connection = try await database.connectUnexplained(logger: logger)
                    defer { Task { try? await connection.close() } }
                    for try await _ in try await connection.answered("SELECT 1", logger: logger) {}
                    return .some(nil)
                } catch {
                    return .some(Self.answered(error) ? nil : Self.explain(error, connectTimeout: limit.components.seconds))
                }
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return .none
            }
            let first = await group.next() ?? .none
            group.cancelAll()
            return first ?? "no answer within \(Self.words(limit))"
        }
    }

    /// Whether `error`, of a connection being made, is the server's own
    /// answer (an error it sent, with its SQLSTATE), which shows that it answers.
    static func answered(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        return error.serverInfo?[.sqlState] != nil
    }
}
