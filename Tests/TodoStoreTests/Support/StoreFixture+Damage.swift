import Foundation
import GRDB
import Testing
import TodoStore

extension StoreFixture {
    /// Writes a SQLite store of 300 items with long titles, folds its `-wal`
    /// file back, then scribbles over the middle one of the pages that hold
    /// the item rows (found with SQLite's `dbstat`, so that tables added by
    /// later schemas do not move the damage elsewhere); returns the damaged
    /// file's bytes, to compare with what is on disk after the test.
    func damagedSQLiteFile() async throws -> Data {
        do {
            let store = try SQLiteStore(url: fileURL, pollInterval: nil)
            for index in 0..<300 {
                try await store.change(.add(try item("Item \(index) " + String(repeating: "x", count: 200))))
            }
        }
        let queue = try DatabaseQueue(path: fileURL.path)
        try await queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let (pageSize, page) = try await queue.read { db in
            let leaves = "FROM dbstat WHERE name = 'item' AND pagetype = 'leaf'"
            return (
                try Int.fetchOne(db, sql: "PRAGMA page_size"),
                try Int.fetchOne(db, sql: "SELECT pageno \(leaves) ORDER BY pageno LIMIT 1 OFFSET (SELECT count(*) / 2 \(leaves))")
            )
        }
        try queue.close()
        var bytes = try Data(contentsOf: fileURL)
        let size = try #require(pageSize)
        let start = (try #require(page, "the item table has leaf pages") - 1) * size
        for offset in start..<(start + size) { bytes[offset] = 0x5A }
        try bytes.write(to: fileURL)
        return bytes
    }
}
