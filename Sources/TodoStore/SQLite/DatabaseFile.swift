import Foundation
import GRDB

/// Checks an existing database file before Rewind opens it for writing, so
/// that a file that is not Rewind's, is from a newer Rewind, or is damaged is
/// refused with a clear error and left byte for byte as it was.
enum DatabaseFile {
    /// The SQLite `application_id` that marks a Rewind database ("RWND").
    static let applicationID: Int32 = 0x5257_4E44

    /// Whether an SQLite file without Rewind's mark holds nothing: no table at
    /// all, or only the empty migrations table that another Rewind process
    /// creates just before its first migration marks the file (two processes
    /// opening a new database at once). Anything else is someone else's.
    private static func isEmptyOrBeingCreated(_ db: Database) throws -> Bool {
        let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        guard !names.isEmpty else { return true }
        guard names == ["grdb_migrations"] else { return false }
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations") == 0
    }

    /// Throws when the file at `url` must not be opened for writing. A missing
    /// or empty file passes: it will be created.
    ///
    /// With `everyPage`, SQLite's `quick_check` reads the whole file for
    /// damage (O(file size)); without it only the header, the mark and the
    /// migrations are read, and damage elsewhere is found when its pages are
    /// read (SQLite then refuses the statement, and nothing is written).
    ///
    /// - Returns: Whether the file is a Rewind database with every migration
    ///   of `migrator` applied, so that opening it needs no write.
    /// A symbolic link is followed (a database kept elsewhere); what it, or
    /// the path, names must be a regular file: a directory, a FIFO (which
    /// would block any reader) or a device is refused before SQLite opens it.
    @discardableResult
    static func check(_ url: URL, migrator: DatabaseMigrator, everyPage: Bool = true) throws -> Bool {
        let path = url.path
        var status = stat()
        guard stat(path, &status) == 0 else {
            var link = stat()
            if lstat(path, &link) == 0 {
                throw StoreError.io(path: path, detail: "it is a symbolic link to something that does not exist")
            }
            return false
        }
        if status.st_mode & S_IFMT != S_IFREG {
            throw StoreError.notARegularFile(path: path, kind: AtomicFile.kindOfNonRegularFile(status) ?? "a special file")
        }
        guard status.st_size > 0 else { return false }
        // The file is read through SQLite only, never with a descriptor of
        // our own: closing one would drop every lock this process's SQLite
        // connections hold on the file (POSIX locks belong to the process),
        // and another process could then take the WAL away from under them.
        // A file that is not SQLite's is SQLITE_NOTADB below.

        do {
            let queue = try openForReading(path)
            defer { try? queue.close() }
            return try queue.read { db in
                let check = everyPage ? try String.fetchAll(db, sql: "PRAGMA quick_check") : ["ok"]
                guard check == ["ok"] else {
                    let detail = check.prefix(3).joined(separator: "; ")
                    DamageMark.record(path: path, detail: detail)
                    throw StoreError.corrupt(path: path, detail: detail)
                }
                let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                if id != applicationID {
                    guard id == 0, try isEmptyOrBeingCreated(db) else { throw StoreError.foreignDatabase(path: path) }
                    return false
                }
                if try migrator.hasBeenSuperseded(db) {
                    let known = Set(migrator.migrations)
                    // In the order of their numbers: v9 before v10.
                    let unknown = try migrator.appliedIdentifiers(db).subtracting(known)
                        .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
                    throw StoreError.newerSchema(path: path, unknownMigrations: unknown)
                }
                return try migrator.hasCompletedMigrations(db)
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB: throw StoreError.notADatabase(path: path)
            case .SQLITE_CORRUPT:
                DamageMark.record(path: path, detail: error.message ?? "corrupt")
                throw StoreError.corrupt(path: path, detail: error.message ?? "corrupt")
            default: throw StoreError.io(path: path, detail: error.message ?? "\(error)")
            }
        }
    }

    /// Opens the database at `path` for reading only. When SQLite cannot
    /// make the `-shm` file that reading a WAL database needs (a read-only
    /// folder, a full disk) and no committed change waits in the `-wal` file,
    /// the file is opened as immutable: read without locks or `-shm`.
    static func openForReading(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        configuration.label = "rewind"
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            _ = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") }
            return queue
        } catch let error as DatabaseError
            where [.SQLITE_CANTOPEN, .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_READONLY].contains(error.resultCode)
        {
            let pendingWAL = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue ?? 0
            guard pendingWAL == 0 else { throw error }
            var escaped = path.replacingOccurrences(of: "%", with: "%25")
            escaped = escaped.replacingOccurrences(of: "?", with: "%3f").replacingOccurrences(of: "#", with: "%23")
            return try DatabaseQueue(path: "file:" + escaped + "?immutable=1", configuration: configuration)
        }
    }
}
