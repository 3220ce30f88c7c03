import Foundation
import GRDB
import Synchronization

/// A connection of its own to the database file that tells a store keeping
/// the list in memory whether another process has committed a change of
/// the list since memory was read: so that a read, and what is decided on
/// it (an edit that changes nothing, a delete of every item, a move), never
/// sees the list as it was before a change that another process (`rewind
/// todo`, a second server) has already acknowledged.
///
/// It looks at SQLite's `data_version`, which this connection sees change
/// at every commit of any other connection (this store's writer included),
/// and only when it changed at the newest log row and the epoch. In WAL
/// mode this read never waits for the store's writer, nor for the disk.
final class OtherWritesWatch: Sendable {
    private let queue: DatabaseQueue
    /// The `data_version` at which the list was last found as memory holds it.
    private let seen = Mutex<Int?>(nil)

    /// Opens a read-only connection to the file at `path`; `nil` when
    /// SQLite cannot (a file opened as immutable, in a folder that nobody
    /// can write to, which no other process changes either).
    init?(path: String) {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        configuration.label = "rewind.watch"
        guard let queue = try? DatabaseQueue(path: path, configuration: configuration),
            (try? queue.read({ db in try Int.fetchOne(db, sql: "PRAGMA data_version") })) != nil
        else { return nil }
        self.queue = queue
    }

    /// Whether another process committed a change of the list since memory
    /// was read: the file's newest log row lies beyond the one memory holds,
    /// or the file was reset (another epoch). This store's own change in
    /// flight puts memory ahead of the file, never behind it.
    ///
    /// - Parameter memory: The newest log row and the epoch memory holds,
    ///   read after the file (so that a catch-up by this store's writer
    ///   meanwhile is counted).
    /// - Complexity: O(1): two rows read by key, and only after a commit.
    func othersWrote(memory: () -> (lastSeq: Int64, epoch: Int64)) throws -> Bool {
        // Each statement in a read transaction of its own (no BEGIN and
        // COMMIT around them: most calls run one statement). A reset between
        // the two reads shows as another epoch.
        try queue.inDatabase { db in
            let version = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0
            if seen.withLock({ $0 == version }) { return false }
            let lastSeq = try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(seq) FROM step")) ?? 0
            let epoch = try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM meta WHERE key = 'epoch'")) ?? -1
            let held = memory()
            let others = epoch != held.epoch || lastSeq > held.lastSeq
            if !others { seen.withLock { $0 = version } }
            return others
        }
    }
}
