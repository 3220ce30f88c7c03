import Dispatch
import Foundation
import GRDB
import Synchronization

/// SQLite's `quick_check` of every page of a store's file, run in the
/// background on a read-only connection of its own, so that a store opened
/// with ``SQLiteStore/Items/inMemoryAfterOpen`` answers before the whole
/// file is read, and still never writes to a damaged file: its writes wait
/// for the check, and after a failed one every operation is refused.
final class IntegrityCheck: Sendable {
    /// Where the check stands.
    enum Outcome: Sendable, Equatable {
        case running
        case passed
        case failed(StoreError)
    }

    private let outcome = Mutex(Outcome.running)
    private let done = DispatchGroup()

    /// Starts the check of the file at `path`.
    init(path: String) {
        done.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let result = Self.check(path)
            outcome.withLock { $0 = result }
            done.leave()
        }
    }

    /// Reads every page of the file at `path` for damage.
    private static func check(_ path: String) -> Outcome {
        do {
            let queue = try DatabaseFile.openForReading(path)
            defer { try? queue.close() }
            let lines = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            guard lines == ["ok"] else {
                let detail = lines.prefix(3).joined(separator: "; ")
                DamageMark.record(path: path, detail: detail)
                return .failed(.corrupt(path: path, detail: detail))
            }
            return .passed
        } catch let error as StoreError {
            return .failed(error)
        } catch let error as DatabaseError {
            return .failed(.database(error, path: path))
        } catch {
            return .failed(.io(path: path, detail: "\(error)"))
        }
    }

    /// Waits until the check is done, blocking the calling thread (a
    /// dispatch queue's, never one of Swift's cooperative pool).
    ///
    /// - Throws: The damage the check found.
    func waitUntilPassed() throws {
        done.wait()
        try refuseIfFailed()
    }

    /// Returns when the check is done, without holding a thread.
    ///
    /// - Throws: The damage the check found.
    func passed() async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            done.notify(queue: .global()) { continuation.resume() }
        }
        try refuseIfFailed()
    }

    /// Throws the damage the check found, if it is done and failed; does
    /// not wait.
    func refuseIfFailed() throws {
        if case .failed(let error) = outcome.withLock({ $0 }) { throw error }
    }
}

extension SQLiteStore {
    /// Returns once the check of every page of the file, which a store
    /// opened with ``Items/inMemoryAfterOpen`` runs in the background, has
    /// passed; at once for a store opened otherwise (``Items/inMemory``
    /// checks at open, ``Items/onDemand`` finds damage where it reads).
    ///
    /// - Throws: ``StoreError/corrupt(path:detail:)`` (or the error that
    ///   kept the file from being read) when the check failed; every
    ///   operation of the store fails with it from then on, and the file is
    ///   never written.
    public func checkedForDamage() async throws {
        try await integrity?.passed()
    }
}
