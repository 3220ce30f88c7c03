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
    enum Fate { case committed, notCommitted, unknown }

    /// What became of `transaction` (its number, `nil` when it was not
    /// learnt): not committed when it had not sent its `COMMIT` (the server
    /// rolls such a transaction back); else what the server says
    /// (`txid_status`), asked on a fresh connection, waiting while the
    /// transaction's backend is still ending; unknown when its number was
    /// not learnt, or the server cannot be asked or no longer knows.
    func fate(of transaction: Int64?, committing: Bool, logger: Logger) async -> Fate {
        guard committing else { return .notCommitted }
        guard let transaction else { return .unknown }
        for _ in 0..<20 {
            let status = try? await Self.whenConnectionsEnd {
                try await withPooledConnection { connection in
                    let rows = try await connection.answered("SELECT txid_status(\(transaction))", logger: logger)
                        .decode(String?.self)
                    for try await status in rows { return status }
                    return nil
                }
            }
            switch status {
            case "committed": return .committed
            case "aborted": return .notCommitted
            case "in progress": try? await Task.sleep(for: .milliseconds(100))
            default: return .unknown
            }
        }
        return .unknown
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
    /// sent its `COMMIT`, or the server says it was aborted), up to
    /// ``attemptsWhenConnectionsEnd`` tries in all, and
    /// answers what it answered if it did commit. The transaction's number
    /// is what a statement of `body` noted in ``transactionNumber``; without
    /// it, a transaction whose connection ended after its `COMMIT` was sent
    /// fails.
    func retriedTransaction<Value: Sendable>(
        logger: Logger, isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        var attempts = 0
        while true {
            attempts += 1
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
                case .notCommitted where attempts < Self.attemptsWhenConnectionsEnd:
                    try await Task.sleep(for: Self.pauseWhenConnectionsEnd * (attempts - 1))
                case .notCommitted, .unknown:
                    throw error
                }
            }
        }
    }

    /// How many times an operation is tried when the server ends its
    /// connections.
    static let attemptsWhenConnectionsEnd = 3
    /// The pause before each try after the second, times the tries made
    /// after the first: the pool learns of ended connections on its event
    /// loop, a moment after the server ends them.
    static let pauseWhenConnectionsEnd = Duration.milliseconds(100)

    /// Runs `body` again, up to ``attemptsWhenConnectionsEnd`` times in
    /// all, while it fails because the server ended its connection: a body
    /// that commits nothing (a read, a question about a transaction), or
    /// one that first looks whether an earlier try committed.
    static func whenConnectionsEnd<Value>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Value
    ) async throws -> Value {
        var attempts = 1
        while true {
            do {
                return try await body()
            } catch where connectionEnded(error) && attempts < attemptsWhenConnectionsEnd {
                try await Task.sleep(for: pauseWhenConnectionsEnd * (attempts - 1))
                attempts += 1
            }
        }
    }

    /// Whether `error` says the server ended the connection before it
    /// answered: its own "terminating connection" (SQLSTATE 57P01 to
    /// 57P03), the connection closed under the statement (as postgres-nio
    /// saw it, or as ``ConnectionClosedBeforeAnswer`` when the wait watch
    /// saw it first), closed before it was used
    /// (``ConnectionClosedBeforeUse``), or failed before the server
    /// confirmed the commit of a statement run alone (``CommitNotConfirmed``).
    static func connectionEnded(_ error: any Error) -> Bool {
        if error is ConnectionClosedBeforeAnswer || error is ConnectionClosedBeforeUse || error is CommitNotConfirmed { return true }
        guard let error = error as? PSQLError else { return false }
        if let state = error.serverInfo?[.sqlState] { return ["57P01", "57P02", "57P03"].contains(state) }
        return error.code == .serverClosedConnection || error.code == .clientClosedConnection
    }
}
