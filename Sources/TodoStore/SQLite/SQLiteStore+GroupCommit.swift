import Foundation
import GRDB
import Synchronization
import Todos

/// Group commit: the changes that many requests ask for at the same moment
/// are written in one transaction, with one wait for the disk (`fdatasync`)
/// for all of them.
///
/// A request hands its work to ``submit(_:)`` and waits. While no batch is
/// being written, the work starts at once, as a batch of one. While a batch
/// is being written (most of that time is the commit waiting for the disk),
/// the work that arrives waits in line; when the commit is done, everything
/// in line becomes the next batch. So under load a batch holds what arrived
/// during the previous commit, and with no load a change waits for nobody.
///
/// In a batch each piece of work runs in a savepoint of its own, in the
/// order it arrived (the order of the history's rows): a piece that fails
/// (a change the domain refuses, an item that is gone) is rolled back alone
/// and answered with its error; the others are answered only after the
/// commit that holds them. When the commit fails, every piece of the batch
/// is answered with that error and nothing of it stays.
extension SQLiteStore {
    /// Work waiting for the next batch, and whether a batch is being written.
    final class CommitLine: Sendable {
        private let line = Mutex<(waiting: [Pending], writing: Bool, batches: Int)>(([], false, 0))
        /// Where batches are written, one at a time.
        let queue = DispatchQueue(label: "rewind.sqlite.group-commit")

        /// A piece of work and how to answer it.
        struct Pending: Sendable {
            /// The store to write it to, kept alive until the work is done.
            let store: SQLiteStore
            /// Runs the work inside the batch's transaction (its answer is
            /// held until the commit); returns whether it failed after
            /// changing what is loaded, which must then be read again.
            let run: @Sendable (Database, inout Loaded) -> Bool
            /// Answers the request once the batch committed, or with the
            /// commit's error.
            let answer: @Sendable ((any Error)?) -> Void
        }

        /// Adds `pending` to the line; returns whether the caller must start
        /// writing (no batch was being written).
        func add(_ pending: Pending) -> Bool {
            line.withLock { line in
                line.waiting.append(pending)
                if line.writing { return false }
                line.writing = true
                return true
            }
        }

        /// Takes everything in line as the next batch; an empty batch ends
        /// the writing.
        func next() -> [Pending] {
            line.withLock { line in
                let batch = line.waiting
                line.waiting.removeAll()
                if batch.isEmpty { line.writing = false } else { line.batches += 1 }
                return batch
            }
        }

        /// How many batches were written so far.
        var batchesWritten: Int { line.withLock { $0.batches } }
    }

    /// Runs `body` in the next group commit and returns its result once the
    /// transaction that holds it committed.
    ///
    /// - Throws: What `body` threw (nothing of it was written), or the
    ///   commit's error (nothing of the batch was written).
    func submit<Result: Sendable>(
        _ body: @escaping @Sendable (Database, inout Loaded) throws -> Result
    ) async throws -> Result {
        try database.refuseWrites()
        let path = database.url.path
        return try await withCheckedThrowingContinuation { continuation in
            let outcome = Outcome<Result>()
            let pending = CommitLine.Pending(
                store: self,
                run: { db, loaded in
                    let start = loaded.head
                    loaded.positionsFoundByRow = 0
                    do {
                        try db.inSavepoint {
                            outcome.set(.success(try body(db, &loaded)))
                            return .commit
                        }
                        return false
                    } catch {
                        outcome.set(.failure(error))
                        // The savepoint is rolled back; memory went ahead
                        // only if the work failed after applying its changes.
                        return loaded.head != start
                    }
                },
                answer: { commitError in
                    if let commitError {
                        continuation.resume(throwing: commitError)
                    } else {
                        continuation.resume(with: outcome.value ?? .failure(StoreError.io(path: path, detail: "the change was not run")))
                    }
                })
            let line = commitLine
            guard line.add(pending) else { return }
            line.queue.async {
                while true {
                    var batch = line.next()
                    guard !batch.isEmpty else { return }
                    let (commitError, answers) = Self.write(&batch)
                    for answer in answers { answer(commitError) }
                }
            }
        }
    }

    /// Writes `batch` to its store and empties it, so that nothing here
    /// holds the store any more when the answers go out: a process that ends
    /// right after its change then closes the database (and SQLite folds the
    /// -wal file back) rather than racing the writer.
    private static func write(
        _ batch: inout [CommitLine.Pending]
    ) -> (error: (any Error)?, answers: [@Sendable ((any Error)?) -> Void]) {
        let answers = batch.map { $0.answer }
        guard let store = batch.first?.store else { return (nil, answers) }
        let error = store.write(batch)
        batch.removeAll()
        return (error, answers)
    }

    /// Writes one batch in one transaction; returns the commit's error, or
    /// `nil` when every piece of the batch is committed (or failed alone).
    private func write(_ batch: [CommitLine.Pending]) -> (any Error)? {
        let path = database.url.path
        var stale = false
        defer { subscribers.notify() }
        do {
            try database.queue.inTransaction(.immediate) { db in
                try catchUp(db)
                stale = memory.withLock { loaded in
                    batch.reduce(false) { stale, pending in pending.run(db, &loaded) || stale }
                }
                return .commit
            }
        } catch {
            reloadAfterFailure()
            return (error as? DatabaseError).map { StoreError.database($0, path: path) } ?? error
        }
        if stale { reloadAfterFailure() }
        return nil
    }

    /// Reads what is loaded again from the file, after a failure left memory
    /// ahead of it. When the file cannot be read either, memory is
    /// forgotten (``forgetMemory()``): the next read or change reads the
    /// file, and throws if it still cannot, rather than show a change that
    /// was not saved.
    func reloadAfterFailure() {
        let path = database.url.path
        let keepsList = memory.withLock { $0.list != nil }
        do {
            let fresh = try database.queue.read { db in try Self.load(db, path: path, list: keepsList) }
            memory.withLock { $0 = fresh }
        } catch {
            forgetMemory()
        }
    }
}

/// The result of one piece of work in a batch, written on the batch's queue
/// and read there when the batch is answered.
private final class Outcome<Value: Sendable>: Sendable {
    private let result = Mutex<Result<Value, any Error>?>(nil)

    /// The result, once the work ran.
    var value: Result<Value, any Error>? { result.withLock { $0 } }

    /// Keeps the work's result.
    func set(_ value: Result<Value, any Error>) {
        result.withLock { $0 = value }
    }
}
