import Foundation
import Logging
import PostgresNIO
import Synchronization

/// What became of a transaction whose connection the server ended before
/// it answered (a restart, an administrator), and a transaction that is run
/// again when it surely did not commit.
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
            let status = try? await PostgresStore.whenConnectionsEnd {
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
    /// ``PostgresStore/attemptsWhenConnectionsEnd`` tries in all, and
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
            } catch where PostgresStore.connectionEnded(error) {
                switch await fate(of: number.value, committing: done != nil, logger: logger) {
                case .committed:
                    if let done { return done }
                    throw error
                case .notCommitted where attempts < PostgresStore.attemptsWhenConnectionsEnd:
                    try await Task.sleep(for: PostgresStore.pauseWhenConnectionsEnd * (attempts - 1))
                case .notCommitted, .unknown:
                    throw error
                }
            }
        }
    }
}
