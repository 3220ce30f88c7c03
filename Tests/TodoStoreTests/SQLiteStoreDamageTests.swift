import Foundation
import GRDB
import Testing
import Todos
@testable import TodoStore

/// Every refusal of a damaged file names the file, and SQLite's failures
/// become sentences that say what happened.
@Suite("SQLite store errors name the file")
struct SQLiteStoreDamageTests {
    let badFiles = SQLiteStoreTests.BadFiles()

    @Test func aHistoryRowAgainstTheSchemaNamesTheFile() throws {
        let fixture = try StoreFixture(.sqlite)
        try badFiles.databaseWithThreeItems(fixture) { db, _ in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "UPDATE step SET kind = 'launch' WHERE seq = (SELECT max(seq) FROM step)")
        }
        try badFiles.assertRefused(fixture.fileURL) {
            if case .corrupt(let path, _) = $0 { path == fixture.fileURL.path } else { false }
        }
    }

    @Test(arguments: ["item", "step", "meta"])
    func aDroppedTableIsDamageThatNamesTheFile(table: String) async throws {
        let fixture = try StoreFixture(.sqlite)
        try badFiles.databaseWithThreeItems(fixture) { db, _ in
            try db.execute(sql: "DROP TABLE \(table)")
        }
        try badFiles.assertRefused(fixture.fileURL) {
            if case .corrupt(let path, let detail) = $0 {
                path == fixture.fileURL.path && detail == "no such table: \(table)"
            } else { false }
        }
    }

    @Test func aFullDiskSaysSo() async throws {
        let error = StoreError.database(DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full"), path: "/data/rewind.sqlite")
        #expect(error == .diskFull(path: "/data/rewind.sqlite"))
        #expect(error.description == "Cannot write /data/rewind.sqlite: the disk is full. Nothing was changed; free some space and try again.")
    }

    @Test func aReadOnlyDatabaseNamesItsDirectory() async throws {
        let error = StoreError.database(DatabaseError(resultCode: .SQLITE_READONLY, message: "attempt to write a readonly database"), path: "/data/rewind.sqlite")
        #expect(error == .readOnly(path: "/data"))
        #expect(error.description == "The data directory /data is read-only: the list can be shown and exported, not changed.")
    }

    @Test func otherFailuresKeepSQLitesMessageAndNameTheFile() async throws {
        let error = StoreError.database(DatabaseError(resultCode: .SQLITE_BUSY, message: "database is locked"), path: "/data/rewind.sqlite")
        #expect(error == .io(path: "/data/rewind.sqlite", detail: "database is locked"))
    }
}
