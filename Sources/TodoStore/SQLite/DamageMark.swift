import Foundation
import GRDB
import Synchronization

/// What keeps a damaged database from being written by the next process:
/// a file beside it (`rewind.sqlite-damaged`), made when SQLite finds a
/// damaged page. A command reads only the pages it needs, so one that found
/// damage fails, and the next, which writes to pages of its own, would
/// otherwise go ahead. While the mark is there, every write first has
/// SQLite's `quick_check` read the whole file: it is refused while the file
/// is damaged, and the mark is removed once the check finds nothing (the
/// file was restored from a backup). Reading is not held up: what can
/// still be read can be shown and exported.
final class DamageMark: Sendable {
    /// The database's path.
    let path: String
    /// The mark's path.
    var markPath: String { path + "-damaged" }

    /// The damage this process's check found, so that it is not looked for again.
    private let found = Mutex<StoreError?>(nil)

    /// The mark of the database at `path`.
    init(path: String) {
        self.path = path
    }

    /// Marks the database at `path` as damaged (`detail` is SQLite's word
    /// for it). Failing to write the mark (a read-only folder) changes
    /// nothing else.
    static func record(path: String, detail: String) {
        let mark = path + "-damaged"
        guard FileManager.default.fileExists(atPath: path), !FileManager.default.fileExists(atPath: mark) else { return }
        let text = "SQLite found damage in \(path): \(detail)\n"
            + "Rewind refuses to write to it until SQLite's quick_check finds none (a file restored from a backup).\n"
        _ = FileManager.default.createFile(atPath: mark, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
    }

    /// Throws the damage found in the file when it is marked damaged and
    /// still is; removes the mark when a check of every page finds nothing.
    ///
    /// - Throws: ``StoreError/corrupt(path:detail:)``.
    func refuseIfDamaged(migrator: DatabaseMigrator) throws {
        if let known = found.withLock({ $0 }) { throw known }
        // One system call a write while there is no mark.
        guard access(markPath, F_OK) == 0 else { return }
        do {
            try DatabaseFile.check(URL(fileURLWithPath: path), migrator: migrator, everyPage: true)
        } catch let error as StoreError {
            guard case .corrupt = error else { throw error }
            found.withLock { $0 = error }
            throw error
        }
        try? FileManager.default.removeItem(atPath: markPath)
    }
}
