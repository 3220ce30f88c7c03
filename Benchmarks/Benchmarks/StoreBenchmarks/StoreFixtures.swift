import BenchmarkSupport
import Foundation
import GRDB
import Todos
import TodoStore

/// Temporary directories of this process's benchmarks.
enum TemporaryDirectory {
    private static let root = FileManager.default.temporaryDirectory
        .appendingPathComponent("rewind-benchmarks-\(ProcessInfo.processInfo.processIdentifier)")

    /// A new empty directory.
    static func make() throws -> URL {
        let url = root.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Removes every directory `make()` made.
    static func removeAll() {
        try? FileManager.default.removeItem(at: root)
    }
}

/// A fresh SQLite store and new items to add to it.
final class StoreFixture {
    let store: SQLiteStore
    private var turn = 0

    init() throws {
        store = try SQLiteStore(url: try TemporaryDirectory.make().appendingPathComponent("rewind.sqlite"), pollInterval: nil)
    }

    func nextItem() throws -> TodoItem {
        turn += 1
        return try Fixture.item(turn)
    }
}

/// A plain GRDB database with the store's pragmas (see TodoDatabase.swift:
/// WAL, synchronous = FULL, a busy timeout) and the store's item table.
final class PlainFixture {
    let queue: DatabaseQueue
    private(set) var turn = 0
    private let encoder = TodoJSON.makeEncoder()

    init() throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // As TodoDatabase.swift does: WAL by pragma, then FULL (GRDB's own WAL
        // set-up would reset synchronous to NORMAL after this closure).
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        let url = try TemporaryDirectory.make().appendingPathComponent("plain.sqlite")
        queue = try DatabaseQueue(path: url.path, configuration: configuration)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE item (id TEXT PRIMARY KEY, rank DOUBLE NOT NULL, body TEXT NOT NULL)")
            try db.execute(sql: "CREATE INDEX item_rank ON item(rank)")
        }
    }

    /// Inserts one row in a transaction of its own, as the store's writes are
    /// (immediate: it takes the write lock at once).
    func insert(id: String, body: String) throws {
        try queue.inTransaction(.immediate) { db in
            try db.execute(
                sql: "INSERT INTO item (id, rank, body) VALUES (?, ?, ?)",
                arguments: [id, Double(turn), body])
            return .commit
        }
    }

    /// The id and JSON body of a new item, as the store would write them.
    func nextRow() throws -> (String, String) {
        turn += 1
        let item = try Fixture.item(turn)
        return (item.id.uuidString, String(decoding: try encoder.encode(item), as: UTF8.self))
    }
}

/// The database of the cold-open benchmark.
enum ColdOpen {
    static let count = 100_000

    /// Makes a store file with `count` items added one change at a time, so
    /// that it also holds `count` history steps, and returns its URL.
    static func build() throws -> URL {
        let url = try TemporaryDirectory.make().appendingPathComponent("rewind.sqlite")
        let store = try SQLiteStore(url: url, pollInterval: nil)
        for number in 0..<count {
            try store.change([.add(try Fixture.item(number))], named: nil)
        }
        store.close()
        return url
    }
}
