import Foundation
import GRDB
import Rewind
import Todos

/// The SQLite database of the to-do app: items, undo history and position,
/// in one file opened in WAL mode, its schema made and upgraded by a
/// `DatabaseMigrator`.
///
/// Tables:
/// - `item(id, rank, body)`: one row per item; `rank` orders the list (a
///   number between its neighbours', so inserting anywhere writes one row);
///   `body` is the item in the documented JSON format.
/// - `step(seq, name, date, lastChangeDate, coalescingKey, changes)`: one row
///   per history step, oldest first by `seq`; `changes` is the JSON array of
///   the changes that cross it (undo changes for done steps, redo changes for
///   undone ones).
/// - `meta(key, value)`: `position`, the number of done steps.
struct TodoDatabase: Sendable {
    let queue: DatabaseQueue
    let url: URL
    /// Why the file was opened for reading only (a read-only data directory,
    /// a full disk), thrown by every write; `nil` when it can be written.
    let readOnlyError: StoreError?

    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
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
        return migrator
    }()

    /// Opens (creating if needed) the database at `url` after checking that
    /// an existing file is a Rewind database this version can read. Opening
    /// an existing, up-to-date database writes nothing to it.
    ///
    /// When the folder or the file cannot be written (a read-only file
    /// system, missing permissions, a leftover `-shm` file this user cannot
    /// write) or the disk is full, an existing up-to-date database is opened
    /// for reading only, and ``readOnlyError`` says why writes are refused.
    init(url: URL, durability: SQLiteStore.Durability = .powerLoss) throws {
        self.url = url
        let directory = url.deletingLastPathComponent().path
        let upToDate = try DatabaseFile.check(url, migrator: Self.migrator)
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
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            // An up-to-date file is only read: migrating it anyway would be a
            // write transaction, and a wait for the disk, on every open.
            if !upToDate { try Self.migrate(queue) }
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
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
    private static func migrate(_ queue: DatabaseQueue) throws {
        do {
            try migrator.migrate(queue)
        } catch {
            guard try queue.read({ db in try migrator.hasCompletedMigrations(db) }) else { throw error }
        }
    }

    // MARK: Loading

    /// Everything saved: the state, its ranks, the steps and the position.
    struct Snapshot {
        var state: AppState
        var ranks: [UUID: Double]
        var steps: [HistoryStep<AppState.Change>]
        var position: Int
    }

    /// Reads everything saved. Throws ``StoreError/corrupt(path:detail:)``
    /// naming the first item or step that does not decode, or when SQLite
    /// finds damaged pages while reading them.
    ///
    /// Item bodies in the usual shape, and the changes of steps that added an
    /// item, are read by ``RowBodyReader``, without `Codable`; the others are decoded by
    /// `JSONDecoder` in one call each (one array made of the rows' documents),
    /// since a decoder call costs several microseconds of set-up. Only when
    /// such an array does not decode are its rows decoded one by one, to name
    /// the bad one.
    ///
    /// - Complexity: O(*n* + *s*) for *n* items and *s* steps.
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

        var itemRanks: [Double] = []
        var bodies = DocumentColumn(fast: RowBodyReader.item)
        // The ids of the rows left to JSONDecoder, to name a bad one.
        var otherIDs: [String] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT id, rank, body FROM item ORDER BY rank, id")
        while let row = try rows.next() {
            let id = (try? row.decode(String?.self, atIndex: 0)) ?? nil
            do {
                itemRanks.append(try row.decode(Double.self, atIndex: 1))
            } catch {
                throw StoreError.corrupt(path: path, detail: "item \(id ?? "?") has no rank")
            }
            let leftToDecoder = try row.withUnsafeData(atIndex: 2) { bodies.append($0) }
            if leftToDecoder { otherIDs.append(id ?? "?") }
        }
        let items = try bodies.values(decoder) { index, error in
            StoreError.corrupt(path: path, detail: "item \(otherIDs[index]) does not decode: \(error)")
        }
        var ranks: [UUID: Double] = [:]
        ranks.reserveCapacity(items.count)
        for (item, rank) in zip(items, itemRanks) {
            ranks[item.id] = rank
        }
        let list: TodoList
        do {
            list = try TodoList(items: items)
        } catch {
            throw StoreError.corrupt(path: path, detail: "\(error)")
        }

        var headers: [(name: String, date: Double, lastChangeDate: Double, coalescingKey: String?)] = []
        var changes = DocumentColumn(fast: RowBodyReader.changes)
        let stepRows = try Row.fetchCursor(db, sql: "SELECT name, date, lastChangeDate, coalescingKey, changes FROM step ORDER BY seq")
        while let row = try stepRows.next() {
            do {
                headers.append((
                    try row.decode(String.self, atIndex: 0), try row.decode(Double.self, atIndex: 1),
                    try row.decode(Double.self, atIndex: 2), try row.decode(String?.self, atIndex: 3)
                ))
            } catch {
                throw StoreError.corrupt(path: path, detail: "history step \(headers.count + 1) has a missing or malformed name or date")
            }
            _ = try row.withUnsafeData(atIndex: 4) { changes.append($0) }
        }
        let stepChanges = try changes.values(decoder) { _, error in
            StoreError.corrupt(path: path, detail: "a history step does not decode: \(error)")
        }
        var steps: [HistoryStep<AppState.Change>] = []
        steps.reserveCapacity(headers.count)
        for (header, changes) in zip(headers, stepChanges) {
            steps.append(HistoryStep(
                name: header.name,
                date: Date(timeIntervalSinceReferenceDate: header.date),
                lastChangeDate: Date(timeIntervalSinceReferenceDate: header.lastChangeDate),
                coalescingKey: header.coalescingKey,
                changes: changes))
        }
        let position = try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'position'") ?? steps.count
        guard (0...steps.count).contains(position) else {
            throw StoreError.corrupt(path: path, detail: "the history position \(position) lies outside its \(steps.count) steps")
        }
        return Snapshot(state: AppState(todos: list), ranks: ranks, steps: steps, position: position)
    }

    /// Decodes the `count` documents that `documents` holds, in one call when
    /// they decode; otherwise one by one, throwing `failure(index, error)`
    /// for the first that does not.
    static func decodeAll<Value: Decodable>(
        _ type: Value.Type, from documents: JSONArrayBuilder, count: Int, _ decoder: JSONDecoder,
        failure: (Int, any Error) -> StoreError
    ) throws -> [Value] {
        // A body that is not one document (`{…},{…}`, or empty) makes the
        // array fail to decode or have another count; both go the slow way.
        if let all = try? decoder.decode([Value].self, from: documents.array), all.count == count {
            return all
        }
        var values: [Value] = []
        values.reserveCapacity(count)
        for index in 0..<count {
            do {
                values.append(try decoder.decode(Value.self, from: documents.document(at: index)))
            } catch {
                throw failure(index, error)
            }
        }
        return values
    }
}

/// The values of a column of JSON documents, row by row: those that a fast
/// reader takes at once, the others gathered for one `JSONDecoder` call.
struct DocumentColumn<Value: Decodable> {
    private let fast: (UnsafeRawBufferPointer) -> Value?
    private var read: [Value?] = []
    private var others = JSONArrayBuilder()
    private var otherRows: [Int] = []

    /// A column whose documents `fast` reads when it can (`nil` when it cannot).
    init(fast: @escaping (UnsafeRawBufferPointer) -> Value?) {
        self.fast = fast
    }

    /// Adds the next row's document (`nil` for SQL `NULL`). Returns whether
    /// it is left to `JSONDecoder`.
    @discardableResult
    mutating func append(_ document: Data?) -> Bool {
        if let value = document?.withUnsafeBytes(fast) {
            read.append(value)
            return false
        }
        read.append(nil)
        otherRows.append(read.count - 1)
        others.append(document)
        return true
    }

    /// Every row's value, in order, decoding the documents left to `decoder`.
    /// Throws `failure(index, error)` for the first of those that does not
    /// decode, `index` counting only the documents left to the decoder.
    func values(_ decoder: JSONDecoder, failure: (Int, any Error) -> StoreError) throws -> [Value] {
        var values = read
        let decoded = try TodoDatabase.decodeAll(Value.self, from: others, count: otherRows.count, decoder, failure: failure)
        for (row, value) in zip(otherRows, decoded) {
            values[row] = value
        }
        return values.compactMap { $0 }
    }
}

/// The bytes of a JSON array made of documents appended one by one, which
/// also gives back each document on its own.
struct JSONArrayBuilder {
    private var bytes = Data("[".utf8)
    private var ranges: [Range<Int>] = []

    /// Appends a document (`nil`, for SQL `NULL`, appends an empty one,
    /// which does not decode).
    mutating func append(_ document: Data?) {
        if !ranges.isEmpty { bytes.append(UInt8(ascii: ",")) }
        let start = bytes.count
        if let document { bytes.append(document) }
        ranges.append(start..<bytes.count)
    }

    /// The array: `[`, the documents separated by commas, `]`.
    var array: Data {
        var array = bytes
        array.append(UInt8(ascii: "]"))
        return array
    }

    /// The document appended `index`th.
    func document(at index: Int) -> Data {
        bytes.subdata(in: ranges[index])
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
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
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
