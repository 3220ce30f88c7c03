import Foundation
import Logging
import PostgresNIO
import Synchronization

/// When the server ends a connection before it answered (a restart, an
/// administrator): which errors say so, the operations tried again, what
/// became of a transaction, and a transaction that is run again when it
/// surely did not commit.
extension PostgresTodoDatabase {
    /// What became of a transaction whose connection ended before its answer.
    enum Fate: Equatable {
        case committed, notCommitted
        /// Not known, for the reason given.
        case unknown(String)
    }

    /// What became of `transaction` (its number, `nil` when it was not
    /// learnt): not committed when it had not sent its `COMMIT` (the server
    /// rolls such a transaction back); else what the server says
    /// (`txid_status`), asked on a fresh connection, again while the
    /// transaction's backend is still ending or the connection asked on
    /// ends too, within ``retryWindowWhenConnectionsEnd``; unknown when its
    /// number was not learnt, or the server cannot be asked or no longer
    /// knows.
    func fate(of transaction: Int64?, committing: Bool, logger: Logger) async -> Fate {
        guard committing else { return .notCommitted }
        guard let transaction else { return .unknown("its number was not learnt") }
        var retrying = RetryingWhenConnectionsEnd()
        while true {
            let status: String?
            do {
                status = try await withPooledConnection { connection in
                    let rows = try await connection.answered("SELECT txid_status(\(transaction))", logger: logger)
                        .decode(String?.self)
                    for try await status in rows { return status }
                    return nil
                }
            } catch where Self.connectionEnded(error) {
                guard await retrying.pause() else { return .unknown("the connections that asked the server ended too") }
                continue
            } catch {
                return .unknown("asking the server failed: \(Self.explain(error))")
            }
            switch status {
            case "committed": return .committed
            case "aborted": return .notCommitted
            case "in progress":
                guard await retrying.pause() else { return .unknown("the server still had it under way") }
            default: return .unknown("the server no longer knows it")
            }
        }
    }

    /// The number of the transaction that ``retriedTransaction(logger:isolation:_:)``
    /// runs, once a statement of it learnt it (`txid_current()`, read
    /// with the row it locks first: no round trip of its own).
    final class TransactionNumber: Sendable {
        private let number = Mutex<Int64?>(nil)

        /// The number, once learnt.
        var value: Int64? { number.withLock { $0 } }

        /// Notes the number, unless one was noted already.
        func note(_ value: Int64) {
            number.withLock { $0 = $0 ?? value }
        }
    }

    /// The number of the transaction under way, for its statements to note
    /// (`nil` outside ``retriedTransaction(logger:isolation:_:)``).
    @TaskLocal static var transactionNumber: TransactionNumber?

    /// Runs `body` in a transaction on a connection of the pool, as
    /// ``withPooledTransaction(logger:snapshot:isolation:_:)`` does; when the
    /// server ends the connection before the transaction's answer, runs it
    /// again on a fresh connection if it surely did not commit (it had not
    /// sent its `COMMIT`, or the server says it was aborted), for as long as
    /// ``retryWindowWhenConnectionsEnd`` lasts, and answers what it
    /// answered if it did commit. The transaction's number is what a
    /// statement of `body` noted in ``transactionNumber``.
    ///
    /// - Throws: ``CommitOutcomeUnknown`` when the connection ended after
    ///   the `COMMIT` was sent and the server could not say what became of
    ///   it; `body`'s and the server's other errors as they are.
    func retriedTransaction<Value: Sendable>(
        logger: Logger, isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        var retrying = RetryingWhenConnectionsEnd()
        while true {
            let number = TransactionNumber()
            // Set once `body` is done: the COMMIT is sent, and may have landed.
            var done: Value?
            do {
                return try await Self.$transactionNumber.withValue(number) {
                    try await withPooledTransaction(logger: logger) { connection in
                        let value = try await body(connection)
                        done = value
                        return value
                    }
                }
            } catch where Self.connectionEnded(error) {
                switch await fate(of: number.value, committing: done != nil, logger: logger) {
                case .committed:
                    if let done { return done }
                    throw error
                case .notCommitted:
                    guard await retrying.pause() else { throw error }
                case .unknown(let reason):
                    throw CommitOutcomeUnknown(cause: error, reason: reason)
                }
            }
        }
    }

    /// For how long an operation whose connection the server ended is
    /// tried again, from its first failure, once
    /// ``RetryingWhenConnectionsEnd/minimumPauses`` tries were made: the
    /// pool learns of an ended connection on its event loop, a moment after
    /// the server ended it (longer on a busy machine), and a backend that
    /// the server ends takes a moment to roll its transaction back.
    static let retryWindowWhenConnectionsEnd = Duration.seconds(5)

    /// Runs `body` again while it fails because the server ended its
    /// connection, within `window`: a body that commits nothing (a read, a
    /// question about a transaction), or one that first looks whether an
    /// earlier try committed.
    static func whenConnectionsEnd<Value>(
        within window: Duration = retryWindowWhenConnectionsEnd, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Value
    ) async throws -> Value {
        var retrying = RetryingWhenConnectionsEnd(within: window)
        while true {
            do {
                return try await body()
            } catch where connectionEnded(error) {
                guard await retrying.pause() else { throw error }
            }
        }
    }

    /// Whether `error` says the server ended the connection before it
    /// answered: its own "terminating connection" (SQLSTATE 57P01 to
    /// 57P03), the connection closed under the statement (as postgres-nio
    /// saw it, or as ``ConnectionClosedBeforeAnswer`` when the wait watch
    /// saw it first), closed before it was used
    /// (``ConnectionClosedBeforeUse``), or failed before the server
    /// confirmed the commit of a statement run alone (``CommitNotConfirmed``),
    /// or given up because the server stopped answering (``ServerStoppedAnswering``).
    static func connectionEnded(_ error: any Error) -> Bool {
        if error is ConnectionClosedBeforeAnswer || error is ConnectionClosedBeforeUse || error is CommitNotConfirmed
            || error is ServerStoppedAnswering {
            return true
        }
        guard let error = error as? PSQLError else { return false }
        if let state = error.serverInfo?[.sqlState] { return ["57P01", "57P02", "57P03"].contains(state) }
        return error.code == .serverClosedConnection || error.code == .clientClosedConnection
    }
}

/// The pauses between the tries of an operation whose connection the
/// server ended: 10 milliseconds at first, twice as long each time up to
/// 200; at least ``minimumPauses`` of them however long each took (a busy
/// machine may wake a task late), and more while the window they were
/// given lasts, counted from the first.
struct RetryingWhenConnectionsEnd {
    /// How many pauses are made whatever the time.
    static let minimumPauses = 4

    private let window: Duration
    private var deadline: ContinuousClock.Instant?
    private var pauses = 0
    private var next = Duration.milliseconds(10)

    /// Pauses that end within `window` from the first, beyond the minimum.
    init(within window: Duration = PostgresTodoDatabase.retryWindowWhenConnectionsEnd) {
        self.window = window
    }

    /// Waits for the next pause and answers `true`; answers `false` at
    /// once when the minimum was made and the window would be over by
    /// then, or when the task is cancelled.
    mutating func pause() async -> Bool {
        let now = ContinuousClock.now
        let deadline = deadline ?? now + window
        self.deadline = deadline
        guard pauses < Self.minimumPauses || now + next <= deadline else { return false }
        do {
            try await Task.sleep(for: next)
        } catch {
            return false
        }
        pauses += 1
        next = min(next * 2, .milliseconds(200))
        return true
    }
}

/// The connection ended after a transaction's `COMMIT` was sent, and the
/// server could not say whether it committed; or a statement that commits
/// alone was given up because the server stopped answering.
struct CommitOutcomeUnknown: Error, CustomStringConvertible {
    /// How the connection ended.
    let cause: any Error
    /// Why the server could not say.
    let reason: String

    /// The connection ended as `cause` says, and the server could not say, for `reason`.
    init(cause: any Error, reason: String) {
        self.cause = cause
        self.reason = reason
    }

    /// A statement that commits alone, given up because the server stopped
    /// answering: its backend may still commit it once the server goes on,
    /// so whether it did is not asked (an answer now could be overtaken).
    init(givenUp stopped: ServerStoppedAnswering) {
        self.init(cause: stopped, reason: "the server stopped answering")
    }

    var description: String {
        if let stopped = cause as? ServerStoppedAnswering {
            return "the server stopped answering as the change was being committed (\(stopped.circumstances)),"
                + " so whether it was saved is not known; once it answers again, look before making it again"
        }
        return "the connection to the server ended as the change was being committed (\(PostgresTodoDatabase.explain(cause))),"
            + " and whether it was saved is not known (\(reason)); look before making it again"
    }
}
