import Todos

/// Why a store could not be opened or written. Each case names the file and
/// what is wrong; a file a store refuses is never changed.
public enum StoreError: Error, Equatable, Sendable {
    /// The data directory could not be created.
    case cannotCreateDirectory(path: String, reason: String)
    /// The file is not an SQLite database at all.
    case notADatabase(path: String)
    /// The file is an SQLite database, but not one of Rewind's.
    case foreignDatabase(path: String)
    /// The database was written by a newer Rewind, with a schema this one does not know.
    case newerSchema(path: String, unknownMigrations: [String])
    /// The file is damaged.
    case corrupt(path: String, detail: String)
    /// A JSON store file that does not decode.
    case undecodableFile(path: String, detail: String)
    /// Reading or writing the file failed.
    case io(path: String, detail: String)
    /// The connection to the database failed as a change was being
    /// committed, and whether it was saved could not be learnt: look
    /// before making it again. `detail` says what happened.
    case outcomeUnknown(path: String, detail: String)
    /// The disk that holds the file is full; the change was not saved.
    case diskFull(path: String)
    /// The data directory (or its database) cannot be written: it can be
    /// read, not changed.
    case readOnly(path: String)
    /// The database or one of its `-wal`/`-shm` files cannot be written
    /// (its permissions), though the data directory can: the list can be
    /// read, not changed.
    case readOnlyFile(path: String)
    /// A file was to be replaced, but the path names something else: a
    /// symbolic link, a directory, a device, a FIFO, or a file with other
    /// hard links. `kind` says which, as a noun phrase ("a symbolic link").
    case notARegularFile(path: String, kind: String)
}

extension StoreError: CustomStringConvertible {
    /// One sentence that says which file and what is wrong with it.
    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason):
            "Cannot create the data directory \(path): \(reason)."
        case .notADatabase(let path):
            "\(path) is not a Rewind database (it is not an SQLite file); it was left unchanged. Choose another --data-dir or move the file away."
        case .foreignDatabase(let path):
            "\(path) is an SQLite database of another program, not Rewind's; it was left unchanged. Choose another --data-dir or move the file away."
        case .newerSchema(let path, let migrations):
            "\(path) was written by a newer version of Rewind (schema \(migrations.joined(separator: ", "))); it was left unchanged. Upgrade Rewind to open it."
        case .corrupt(let path, let detail):
            "\(path) is damaged (\(detail)); it was left unchanged. Restore it from a backup or an export."
        case .undecodableFile(let path, let detail):
            "\(path) cannot be read as a Rewind document: \(detail). The file was kept as it is."
        case .io(let path, let detail):
            // A detail that ends a sentence itself ("is it running?") gets no second mark.
            "Cannot access \(path): \(detail)" + (detail.last.map { ".?!".contains($0) } == true ? "" : ".")
        case .outcomeUnknown(let path, let detail):
            "\(path): \(detail)" + (detail.last.map { ".?!".contains($0) } == true ? "" : ".")
        case .diskFull(let path):
            "Cannot write \(path): the disk is full. Nothing was changed; free some space and try again."
        case .readOnly(let path):
            "The data directory \(path) is read-only: the list can be shown and exported, not changed."
        case .readOnlyFile(let path):
            "\(path) cannot be written (its permissions): the list can be shown and exported, not changed. A leftover -shm or -wal file can be removed when no Rewind is running."
        case .notARegularFile(let path, let kind):
            "\(path) is \(kind), not a regular file; it was left unchanged. Choose the path of a regular file or a new one."
        }
    }
}

extension StoreError: OutcomeUncertain {
    /// Whether this is ``outcomeUnknown(path:detail:)``.
    public var outcomeIsUnknown: Bool {
        if case .outcomeUnknown = self { true } else { false }
    }
}
