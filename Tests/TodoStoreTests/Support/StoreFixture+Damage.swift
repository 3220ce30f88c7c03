import Foundation
import GRDB
import TodoStore

extension StoreFixture {
    /// Writes a SQLite store of 300 items with long titles, folds its `-wal`
    /// file back, then scribbles over 4 KiB in the middle of the file (item
    /// pages, not the schema); returns the damaged file's bytes, to compare
    /// with what is on disk after the test.
    func damagedSQLiteFile() async throws -> Data {
        do {
            let store = try SQLiteStore(url: fileURL, pollInterval: nil)
            for index in 0..<300 {
                try await store.change(.add(try item("Item \(index) " + String(repeating: "x", count: 200))))
            }
        }
        let queue = try DatabaseQueue(path: fileURL.path)
        try await queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try queue.close()
        var bytes = try Data(contentsOf: fileURL)
        let start = bytes.count / 2
        for offset in start..<(start + 4096) { bytes[offset] = 0x5A }
        try bytes.write(to: fileURL)
        return bytes
    }
}
