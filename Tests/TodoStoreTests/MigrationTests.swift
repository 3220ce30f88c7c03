import Foundation
import GRDB
import Testing
import Todos
@testable import TodoStore

/// A data directory written by the version whose schema was v1 (made by
/// `Fixtures/make-v1-store.sh`: seven items with every kind of due date and
/// location, a rename, a deletion of two, an insertion at a position, a
/// change of every item, and one step left undone) opens with this version,
/// migrated, with nothing lost.
@Suite("SQLite store: migration from schema v1")
struct MigrationTests {
    /// A copy of the fixture's database in a fresh folder.
    func copyOfTheV1Store() throws -> StoreFixture {
        try StoreFixture.copy(of: "v1-store")
    }

    /// What the old version's export wrote: the items in order, every field.
    func expectedItems() throws -> [TodoItem] {
        try StoreFixture.expectedItems(of: "v1-store")
    }

    /// The old file's steps: names and dates, straight from its rows.
    func v1Steps(_ url: URL) throws -> [HistoryOverview.Step] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT name, date FROM step ORDER BY seq").map { row in
                HistoryOverview.Step(name: row[0], date: Date(timeIntervalSinceReferenceDate: row[1]))
            }
        }
    }

    @Test func itemsOrderNamesDatesAndBothStacksSurvive() async throws {
        let fixture = try copyOfTheV1Store()
        let oldSteps = try v1Steps(fixture.fileURL)
        #expect(oldSteps.count == 13)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect((try await store.state()).todos.items == (try expectedItems()))
        let history = (try await store.history())
        #expect(history.steps == oldSteps)
        #expect(history.position == 12)
        #expect(history.redoActionName == "Reopen “Buy milk”")

        // The whole history still crosses: back to the start, then to the end.
        try await store.jump(to: 0)
        #expect((try await store.state()).todos.isEmpty)
        try await store.jump(to: 13)
        let end = (try await store.state())
        #expect(end.todos[id: try #require(end.todos.items.first?.id)]?.isCompleted == false, "the redo reopened Buy milk")
        try await store.jump(to: 12)
        #expect((try await store.state()).todos.items == (try expectedItems()))

        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect((try await reopened.state()) == (try await store.state()))
        #expect((try await reopened.history()) == (try await store.history()))
    }

    @Test func theMigratedFileHasTheNewSchema() async throws {
        let fixture = try copyOfTheV1Store()
        _ = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        let queue = try DatabaseQueue(path: fixture.fileURL.path)
        defer { try? queue.close() }
        let (migrations, columns, kinds, withDue) = try await queue.read { db in
            (
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid"),
                try db.columns(in: "item").map(\.name),
                try String.fetchAll(db, sql: "SELECT kind FROM step ORDER BY seq"),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE due IS NOT NULL")
            )
        }
        #expect(migrations == ["v1", "v2", "v3", "v4", "v5", "v5-shared-lists", "v6-shared-step-heads", "v7-shared-step-rowid", "v8-calculators", "v9-meta-counts", "v10-earlier-rows"])
        #expect(columns == ["id", "rank", "title", "details", "state", "created", "changed", "due", "location"])
        // 13 changes, then the undo of the one left undone.
        #expect(kinds == Array(repeating: "do", count: 13) + ["undo"])
        #expect(withDue == 3)
    }

    @Test func aV1FileWhoseHistoryDoesNotApplyIsRefusedAndKeptAsV1() async throws {
        let fixture = try copyOfTheV1Store()
        let queue = try DatabaseQueue(path: fixture.fileURL.path)
        // Step 12 ("Complete 5 items") would now reopen an item that is not there.
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM item WHERE rank = (SELECT min(rank) FROM item)")
        }
        try queue.close()
        #expect {
            _ = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        } throws: { error in
            guard case .corrupt(let path, let detail) = error as? StoreError else { return false }
            return path == fixture.fileURL.path && detail.contains("history step")
        }
        let check = try DatabaseQueue(path: fixture.fileURL.path)
        defer { try? check.close() }
        let (migrations, steps) = try await check.read { db in
            (try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"), try Int.fetchOne(db, sql: "SELECT count(*) FROM step"))
        }
        #expect(migrations == ["v1"])
        #expect(steps == 13)
    }
}
