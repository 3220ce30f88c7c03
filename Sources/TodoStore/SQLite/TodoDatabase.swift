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
    /// an existing file is a Rewind database this version can read.
    init(url: URL, durability: SQLiteStore.Durability = .powerLoss) throws {
        self.url = url
        try DatabaseFile.check(url, migrator: Self.migrator)
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        configuration.label = "rewind"
        let synchronous = durability.synchronousPragma
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
        }
        do {
            queue = try DatabaseQueue(path: url.path, configuration: configuration)
            try Self.migrator.migrate(queue)
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        } catch let error as DatabaseError {
            throw StoreError.io(path: url.path, detail: error.message ?? "\(error)")
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

    static func load(_ db: Database, path: String) throws -> Snapshot {
        var items: [TodoItem] = []
        var ranks: [UUID: Double] = [:]
        let decoder = TodoJSON.makeDecoder()
        let rows = try Row.fetchCursor(db, sql: "SELECT id, rank, body FROM item ORDER BY rank, id")
        while let row = try rows.next() {
            let body: String = row["body"]
            let item: TodoItem
            do {
                item = try decoder.decode(TodoItem.self, from: Data(body.utf8))
            } catch {
                throw StoreError.corrupt(path: path, detail: "item \(row["id"] as String? ?? "?") does not decode: \(error)")
            }
            ranks[item.id] = row["rank"]
            items.append(item)
        }
        let list: TodoList
        do {
            list = try TodoList(items: items)
        } catch {
            throw StoreError.corrupt(path: path, detail: "\(error)")
        }
        var steps: [HistoryStep<AppState.Change>] = []
        let stepRows = try Row.fetchCursor(db, sql: "SELECT name, date, lastChangeDate, coalescingKey, changes FROM step ORDER BY seq")
        while let row = try stepRows.next() {
            let changes: [AppState.Change]
            do {
                changes = try decoder.decode([AppState.Change].self, from: Data((row["changes"] as String).utf8))
            } catch {
                throw StoreError.corrupt(path: path, detail: "a history step does not decode: \(error)")
            }
            steps.append(HistoryStep(
                name: row["name"],
                date: Date(timeIntervalSinceReferenceDate: row["date"]),
                lastChangeDate: Date(timeIntervalSinceReferenceDate: row["lastChangeDate"]),
                coalescingKey: row["coalescingKey"],
                changes: changes))
        }
        let position = try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'position'") ?? steps.count
        guard (0...steps.count).contains(position) else {
            throw StoreError.corrupt(path: path, detail: "the history position \(position) lies outside its \(steps.count) steps")
        }
        return Snapshot(state: AppState(todos: list), ranks: ranks, steps: steps, position: position)
    }
}
