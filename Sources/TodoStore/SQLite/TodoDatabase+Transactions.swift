import Foundation
import GRDB

extension TodoDatabase {
    /// Runs `body` in a read transaction, SQLite's errors turned into
    /// ``StoreError``s that name the file.
    func reading<Result>(_ body: (Database) throws -> Result) throws -> Result {
        try Self.readingSaved(path: url.path) { try queue.read(body) }
    }

    /// Runs `body` in one immediate transaction: committed when it returns,
    /// rolled back when it throws. Immediate, so that two processes take
    /// turns instead of failing when both read first and then write.
    ///
    /// - Throws: ``readOnlyError`` when the file cannot be written, the
    ///   damage found in it (``refuseWrites()``).
    func writing<Result>(_ body: (Database) throws -> Result) throws -> Result {
        try refuseWrites()
        let path = url.path
        return try Self.readingSaved(path: path) {
            try queue.writeWithoutTransaction { db in
                var result: Result?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                guard let result else { throw StoreError.io(path: path, detail: "the transaction returned nothing") }
                return result
            }
        }
    }
}
