import Foundation
import GRDB
import Rewind
import Todos

/// The SQLite database of the to-do app: items, undo history and position,
/// in one file opened in WAL mode, its schema made and upgraded by a
/// `DatabaseMigrator`.
///
/// Tables (schema v5; see docs/json-format.md, "The SQLite file"):
/// - `item`: one row per item (``ItemRecord``), a column per field; `rank`
///   orders the list (a number between its neighbours', so inserting
///   anywhere writes one row).
/// - `step`: the history as an append-only log (``StepRecord``): one row per
///   change, undo and redo, with the changes that made it and revert it.
/// - `meta(key, value)`: `epoch`, counted up by each reset (which starts
///   the log's numbers again).
/// - `account`: the accounts of team mode (``SQLiteAccountStore``).
/// - `session`: their sign-in sessions, by the SHA-256 of the session id.
/// - `shared_list`, `shared_member`, `shared_item`, `shared_step`,
///   `shared_writer`: the named lists of team mode
///   (``SQLiteSharedListStore``, migration `v5-shared-lists`).
/// - `calculator`, `calculator_step`: the calculators of the browser page
///   (``SQLiteCalculatorStore``, migration `v8-calculators`).
struct TodoDatabase: Sendable {
    let queue: DatabaseQueue
    let url: URL
    /// Why the file was opened for reading only (a read-only data directory,
    /// a full disk), thrown by every write; `nil` when it can be written.
    let readOnlyError: StoreError?
    /// Whether SQLite found damage in the file, here or in another process,
    /// and it was not restored since.
    let damage: DamageMark

    /// Throws why the file must not be written now: it cannot be
    /// (``readOnlyError``), or it is damaged (``DamageMark``).
    func refuseWrites() throws {
        if let readOnlyError { throw readOnlyError }
        try damage.refuseIfDamaged(migrator: Self.migrator(path: url.path))
    }

    /// The migrations of the file at `path` (named in the errors of a
    /// migration that finds damage).
    static func migrator(path: String) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // v1: an item's fields as one JSON body, the history as rows that
        // undo and redo rewrote, and the position in `meta`.
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "PRAGMA application_id = \(DatabaseFile.applicationID)")
            try db.create(table: "item") { table in
                table.primaryKey("id", .text)
                table.column("rank", .double).notNull().indexed()
                table.column("body", .text).notNull()
            }
            try db.create(table: "step") { table in
                table.primaryKey("seq", .integer)
                table.column("name", .text).notNull()
                table.column("date", .double).notNull()
                table.column("lastChangeDate", .double).notNull()
                table.column("coalescingKey", .text)
                table.column("changes", .text).notNull()
            }
            try db.create(table: "meta") { table in
                table.primaryKey("key", .text)
                table.column("value", .integer).notNull()
            }
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('position', 0)")
        }
        // v2: items in columns, the history as an append-only log.
        migrator.registerMigration("v2") { db in
            try migrateV1ToV2(db, path: path)
        }
        // v3: the item rows' states are `active` and `completed`.
        migrator.registerMigration("v3") { db in
            try migrateV2ToV3(db)
        }
        // v4: the accounts of team mode.
        migrator.registerMigration("v4") { db in
            try createAccountTable(db)
        }
        // v5: the sign-in sessions of team mode.
        migrator.registerMigration("v5") { db in
            try createSessionTable(db)
        }
        // v5-shared-lists: the named lists of team mode, each with its
        // members, items, log and latest writers.
        migrator.registerMigration("v5-shared-lists") { db in
            try createSharedListTables(db)
        }
        // v6-shared-step-heads: the heads of a shared list's log rows in an
        // index of their own, which opening a list reads instead of every
        // row (and the large changes of some beside them).
        migrator.registerMigration("v6-shared-step-heads") { db in
            try db.execute(sql: "CREATE INDEX shared_step_head ON shared_step (list, seq, author, kind, reverts, joins)")
        }
        // v7-shared-step-rowid: a shared list's log rows in a table with row
        // ids, their (list, seq) in an index of its own. In a table WITHOUT
        // ROWID each row is a key of the table's b-tree, and finding or
        // inserting a row beside one with a large patch read that whole
        // patch (tens of megabytes) to compare the keys.
        migrator.registerMigration("v7-shared-step-rowid") { db in
            try rebuildSharedStepWithRowIDs(db)
        }
        // v8-calculators: the calculators of the browser page, so that they
        // survive a restart.
        migrator.registerMigration("v8-calculators") { db in
            try createCalculatorTables(db)
        }
        // v9-meta-counts: `meta` counts the times every item row was
        // numbered again and the times the log was pruned, so that a server
        // that keeps the list and its history in memory brings them up to
        // another process's change by the rows that change appended; a
        // version that would not count them must not write here.
        migrator.registerMigration("v9-meta-counts") { db in
            try db.execute(sql: """
                INSERT OR IGNORE INTO meta (key, value) VALUES ('renumberings', 0);
                INSERT OR IGNORE INTO meta (key, value) VALUES ('prunings', 0);
                """)
        }
        // v10-earlier-rows: each member of a shared list has the last log
        // row written under its name by an earlier account, removed since
        // (`ListAccess.earlierRows`); a version that would not read it
        // would let a new account undo the old one's steps.
        migrator.registerMigration("v10-earlier-rows") { db in
            try db.execute(sql: "ALTER TABLE shared_member ADD COLUMN earlier INTEGER NOT NULL DEFAULT 0 CHECK (earlier >= 0)")
        }
        return migrator
    }

    /// Opens (creating if needed) the database at `url` after checking that
    /// an existing file is a Rewind database this version can read. Opening
    /// an existing, up-to-date database writes nothing to it.
    ///
    /// When the folder or the file cannot be written (a read-only file
    /// system, missing permissions, a leftover `-shm` file this user cannot
    /// write) or the disk is full, an existing up-to-date database is opened
    /// for reading only, and ``readOnlyError`` says why writes are refused.
    ///
    /// - Parameter checkingEveryPage: Whether SQLite's `quick_check`, which
    ///   reads the whole file, looks for damage first; without it, damage is
    ///   found in the pages that are read, when they are read.
    init(url: URL, durability: SQLiteStore.Durability = .powerLoss, checkingEveryPage: Bool = true) throws {
        self.url = url
        damage = DamageMark(path: url.path)
        let directory = url.deletingLastPathComponent().path
        let upToDate = try DatabaseFile.check(url, migrator: Self.migrator(path: url.path), everyPage: checkingEveryPage)
        if let unwritable = Self.unwritablePath(url) {
            let error: StoreError = unwritable == directory ? .readOnly(path: directory) : .readOnlyFile(path: unwritable)
            guard upToDate else { throw error }
            queue = try DatabaseFile.openForReading(url.path)
            readOnlyError = error
            return
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.label = "rewind"
        let synchronous = durability.synchronousPragma
        configuration.prepareDatabase { db in
            // WAL mode by hand, not with GRDB's `journalMode = .wal`, which
            // commits a dummy transaction whenever the -wal file is empty (at
            // every open by a new process: a write and several fsyncs before
            // the file was even read) and then sets `synchronous = NORMAL`
            // over the durability chosen here. On a file already in WAL mode
            // this pragma writes nothing.
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                throw DatabaseError(message: "could not switch the database to WAL mode")
            }
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
        }
        do {
            Self.keepToOwner(url.path)
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            // An up-to-date file is only read: migrating it anyway would be a
            // write transaction, and a wait for the disk, on every open.
            if !upToDate { try Self.migrate(queue, path: url.path) }
            self.queue = queue
            readOnlyError = nil
        } catch let error as DatabaseError {
            let failure = StoreError.database(error, path: url.path)
            // A full disk leaves no room for the -shm file that even reading needs.
            guard upToDate, failure == .diskFull(path: url.path) else { throw failure }
            queue = try DatabaseFile.openForReading(url.path)
            readOnlyError = failure
        }
    }

    /// Makes the database at `path` readable and writable by its owner
    /// only, before SQLite opens it: a new file is created so (SQLite would
    /// make it 0644), an existing one is set so, and so are its `-wal` and
    /// `-shm` files where they exist; SQLite gives the ones it makes the
    /// permissions of the database. A new file is created only where none
    /// is (`O_EXCL`), so that no descriptor of this process is ever closed
    /// on a file its SQLite connections hold locks on.
    private static func keepToOwner(_ path: String) {
        let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if created >= 0 { close(created) }
        for file in [path, path + "-wal", path + "-shm"] {
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        }
    }

    /// The first of the database's folder, the database and its `-wal` and
    /// `-shm` files (where they exist) that SQLite cannot write; `nil` when
    /// it can write them all.
    private static func unwritablePath(_ url: URL) -> String? {
        let directory = url.deletingLastPathComponent().path
        guard access(directory, W_OK) == 0 else { return directory }
        let files: [String] = [url.path, url.path + "-wal", url.path + "-shm"]
        return files.first { (path: String) -> Bool in
            if access(path, W_OK) == 0 { return false }
            return errno != ENOENT
        }
    }

    /// Applies the migrations the file lacks. GRDB's migrator reads which
    /// migrations are applied outside the transaction that applies one, so
    /// two processes creating a database at once may both run `v1`; the
    /// second then fails (the table exists) after the first committed it,
    /// and its failure is no failure when every migration is now applied.
    /// When the other process has applied some but not yet all, the
    /// remaining ones are tried again (as long as it keeps applying them).
    private static func migrate(_ queue: DatabaseQueue, path: String) throws {
        let migrator = migrator(path: path)
        // Read only after a failed try, when the migrations table exists:
        // reading it while another process creates it can fail.
        var applied: Set<String> = []
        while true {
            do {
                return try migrator.migrate(queue)
            } catch {
                guard try !queue.read({ db in try migrator.hasCompletedMigrations(db) }) else { return }
                let appliedNow = try queue.read { db in try migrator.appliedIdentifiers(db) }
                guard appliedNow.isStrictSuperset(of: applied) else { throw error }
                applied = appliedNow
            }
        }
    }

    // MARK: Loading

    /// What opening reads: the items and their ranks, and the head of the log.
    struct Snapshot {
        var state: AppState
        var ranks: [UUID: Double]
        var head: LogHead
        /// How many times every item row was numbered again (``count(_:_:)``).
        var renumberings: Int64
    }

    /// Reads the items and where the history stands; the history's steps
    /// are read when they are crossed or shown. Throws
    /// ``StoreError/corrupt(path:detail:)`` naming the first item that does
    /// not decode, or when SQLite finds damaged pages while reading them.
    ///
    /// The due dates and locations, JSON documents, are decoded by one
    /// `JSONDecoder` call for all rows (a call costs several microseconds of
    /// set-up); only when that fails are they decoded one by one, to name
    /// the bad one.
    ///
    /// - Complexity: O(*n*) for *n* items, O(1) for the history.
    static func load(_ db: Database, path: String) throws -> Snapshot {
        try readingSaved(path: path) { try loadRows(db, path: path) }
    }

    /// Runs `body`, which reads the saved rows, turning SQLite's errors into
    /// ``StoreError``s that name the file at `path`. A table or column that
    /// is missing is damage, not a failure to read.
    static func readingSaved<Result>(path: String, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as DatabaseError {
            guard error.resultCode == .SQLITE_ERROR else { throw StoreError.database(error, path: path) }
            throw StoreError.corrupt(path: path, detail: error.message ?? "\(error)")
        }
    }

    private static func loadRows(_ db: Database, path: String) throws -> Snapshot {
        let decoder = TodoJSON.makeDecoder(reading: .store)
        var records: [ItemRecord] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT \(ItemRecord.selection) FROM item ORDER BY rank, id")
        while let row = try rows.next() {
            do {
                records.append(try ItemRecord(row: row))
            } catch {
                let id = (try? row.decode(String?.self, atIndex: 0)) ?? nil
                throw StoreError.corrupt(path: path, detail: "item \(id ?? "?") has a missing or malformed field: \(error)")
            }
        }
        var dues = DocumentColumn<TodoDate>()
        var locations = DocumentColumn<Location>()
        for record in records {
            dues.append(record.due)
            locations.append(record.location)
        }
        let due = try dues.values(decoder, unknown: .unknown) { index, error in
            StoreError.corrupt(path: path, detail: "the due date of item \(records[index].id) does not decode: \(error)")
        }
        let location = try locations.values(decoder, unknown: .unknown) { index, error in
            StoreError.corrupt(path: path, detail: "the location of item \(records[index].id) does not decode: \(error)")
        }
        var items: [TodoItem] = []
        items.reserveCapacity(records.count)
        var ranks: [UUID: Double] = [:]
        ranks.reserveCapacity(records.count)
        for (index, record) in records.enumerated() {
            let item = try record.item(due: due[index], location: location[index], path: path)
            items.append(item)
            ranks[item.id] = record.rank
        }
        let list: TodoList
        do {
            list = try TodoList(items: items)
        } catch {
            throw StoreError.corrupt(path: path, detail: "\(error)")
        }
        return Snapshot(
            state: AppState(todos: list), ranks: ranks, head: try head(db, path: path),
            renumberings: try count(.renumberings, db))
    }

    /// What `meta` counts besides the epoch (migration `v9-meta-counts`).
    enum Count: String {
        /// The times every item row was numbered again: the ranks of items
        /// no log row names change only then, or at a reset.
        case renumberings
        /// The times the log's oldest rows were deleted (a store opened
        /// with a cap): the history shown changes then without a row.
        case prunings
    }

    /// How many times `meta` counted `key`; 0 in a file without the count.
    static func count(_ key: Count, _ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM meta WHERE key = ?"), arguments: [key.rawValue]) ?? 0
    }

    /// Counts `key` once more.
    static func countOnce(_ key: Count, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO meta (key, value) VALUES (?, 1) ON CONFLICT (key) DO UPDATE SET value = value + 1
            """).execute(arguments: [key.rawValue])
    }

    /// Where the history stands, from the newest row of the log, after
    /// checking that the file has its `epoch`.
    static func head(_ db: Database, path: String) throws -> LogHead {
        let head = try HistoryLog(path: path).head(db)
        // Every v2 file has its `epoch` (made with the schema): one without
        // it, or without the table, is damaged.
        guard try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'epoch'") != nil else {
            throw StoreError.corrupt(path: path, detail: "the meta table has no epoch")
        }
        return head
    }
}

/// The values of a column of JSON documents, `NULL` meaning a default:
/// the documents are decoded by one `JSONDecoder` call, as one array.
struct DocumentColumn<Value: Decodable> {
    private var documents = Data("[".utf8)
    private var rows: [Int] = []
    private var ranges: [Range<Int>] = []
    private var count = 0

    /// Adds the next row's document (`nil` for SQL `NULL`).
    mutating func append(_ document: String?) {
        defer { count += 1 }
        guard let document else { return }
        if !rows.isEmpty { documents.append(UInt8(ascii: ",")) }
        let start = documents.count
        documents.append(contentsOf: document.utf8)
        ranges.append(start..<documents.count)
        rows.append(count)
    }

    /// Every row's value, in order: `unknown` for `NULL`, else the decoded
    /// document. Throws `failure(row, error)` for the first that does not decode.
    func values(_ decoder: JSONDecoder, unknown: Value, failure: (Int, any Error) -> StoreError) throws -> [Value] {
        var values = [Value](repeating: unknown, count: count)
        guard !rows.isEmpty else { return values }
        var array = documents
        array.append(UInt8(ascii: "]"))
        if let all = try? decoder.decode([Value].self, from: array), all.count == rows.count {
            for (row, value) in zip(rows, all) { values[row] = value }
            return values
        }
        // A document that is not one value (`{…},{…}`) or does not decode: find it.
        for (row, range) in zip(rows, ranges) {
            do {
                values[row] = try decoder.decode(Value.self, from: documents.subdata(in: range))
            } catch {
                throw failure(row, error)
            }
        }
        return values
    }
}

extension StoreError {
    /// The error that explains SQLite's `error` on the database at `path`:
    /// a full disk, a read-only data directory, damage, or else the message
    /// SQLite gave, always naming the file.
    static func database(_ error: DatabaseError, path: String) -> StoreError {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        switch error.resultCode {
        case .SQLITE_FULL:
            return .diskFull(path: path)
        case .SQLITE_READONLY:
            return .readOnly(path: directory)
        case .SQLITE_CORRUPT:
            // Marked, so that no process writes to it until it is restored.
            DamageMark.record(path: path, detail: error.message ?? "\(error)")
            return .corrupt(path: path, detail: error.message ?? "\(error)")
        case .SQLITE_NOTADB:
            return .corrupt(path: path, detail: error.message ?? "\(error)")
        case .SQLITE_IOERR where isFull(directory):
            // SQLite reports some writes that ran out of space as I/O errors.
            return .diskFull(path: path)
        default:
            return .io(path: path, detail: error.message ?? "\(error)")
        }
    }

    /// Whether the file system of `directory` has (next to) no space left.
    private static func isFull(_ directory: String) -> Bool {
        var status = statvfs()
        guard statvfs(directory, &status) == 0 else { return false }
        return UInt64(status.f_bavail) * UInt64(status.f_frsize) < 64 * 1024
    }
}
