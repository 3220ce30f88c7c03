import Foundation
import GRDB
import Testing
import Todos
@testable import TodoStore

/// A data directory written by the version whose schema was v2 and whose
/// words for an item's state were `unfinished` and `finished` (made by
/// `Fixtures/make-v2-store.sh`: five items, two completed and one reopened,
/// a toggle-all both ways, three completed and cleared, and that clear
/// undone) opens with this version: its rows are renamed to `active` and
/// `completed`, and its history log, which is never rewritten, still
/// crosses every step written with the earlier op names.
@Suite("SQLite store: migration of the state names (schema v3)")
struct StateNamesMigrationTests {
    static let fixture = "v2-store"

    /// The rows of the `step` table as they are: the op names of the log.
    func logRows(_ url: URL) throws -> [String] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            try String.fetchAll(db, sql: "SELECT seq || ' ' || kind || ' ' || forward || ' ' || inverse FROM step ORDER BY seq")
        }
    }

    @Test func itemsStatesAndBothStacksSurvive() async throws {
        let fixture = try StoreFixture.copy(of: Self.fixture)
        let expected = try StoreFixture.expectedItems(of: Self.fixture)
        #expect(expected.map(\.state) == [.active, .completed, .active, .completed, .completed])
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect(try await store.state().todos.items == expected)
        let history = try await store.history()
        #expect(history.steps.count == 11)
        #expect(history.position == 10)
        #expect(history.undoActionName == "Complete 3 items")
        #expect(history.redoActionName == "Clear 3 completed items")

        // Redo the clear written as `removeFinished`, and undo it again.
        try await store.redo()
        #expect(try await store.state().todos.items.map(\.title) == ["Buy milk", "Post the letters"])
        try await store.undo()
        #expect(try await store.state().todos.items == expected)

        // Across the toggle-all both ways (`finishAll`, `unfinishAll`) and the
        // single changes (`finish`, `unfinish`), to the start and back.
        try await store.jump(to: 8)
        #expect(try await store.state().todos.items.allSatisfy(\.isCompleted))
        try await store.jump(to: 9)
        #expect(try await !store.state().todos.items.contains(where: \.isCompleted))
        try await store.jump(to: 6)
        #expect(try await store.state().todos.items.map(\.state) == [.completed, .active, .completed, .active, .active])
        try await store.jump(to: 0)
        #expect(try await store.state().todos.isEmpty)
        try await store.jump(to: 11)
        #expect(try await store.state().todos.items.map(\.title) == ["Buy milk", "Post the letters"])
        try await store.jump(to: 10)
        #expect(try await store.state().todos.items == expected)

        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect(try await reopened.state() == store.state())
        #expect(try await reopened.history() == store.history())
    }

    @Test func theRowsAreRenamedAndTheLogIsKeptAsItWas() async throws {
        let fixture = try StoreFixture.copy(of: Self.fixture)
        let oldLog = try logRows(fixture.fileURL)
        #expect(oldLog.contains { $0.contains(#""op":"removeFinished""#) })
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        // A new change is written with the new names.
        let milk = try #require(try await store.state().todos.items.first)
        try await store.change(.update(milk.id, [.complete], at: Date(timeIntervalSince1970: 1_795_000_000)))

        let newLog = try logRows(fixture.fileURL)
        #expect(Array(newLog.prefix(oldLog.count)) == oldLog, "the log's rows are not rewritten")
        let newest = try #require(newLog.last)
        #expect(newest.contains(#""op":"complete""#) && !newest.contains("finish"))

        let queue = try DatabaseQueue(path: fixture.fileURL.path)
        defer { try? queue.close() }
        let (migrations, states, table) = try await queue.read { db in
            (
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid"),
                try String.fetchAll(db, sql: "SELECT state FROM item ORDER BY rank"),
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'item'")
            )
        }
        #expect(migrations == ["v1", "v2", "v3", "v4", "v5", "v5-shared-lists", "v6-shared-step-heads", "v7-shared-step-rowid", "v8-calculators", "v9-meta-counts", "v10-earlier-rows"])
        #expect(states == ["completed", "completed", "active", "completed", "completed"])
        #expect(table?.contains("CHECK (state IN ('active', 'completed'))") == true)
        await #expect(throws: DatabaseError.self) {
            try await queue.write { db in try db.execute(sql: "UPDATE item SET state = 'finished'") }
        }
    }

    @Test func aNewFileHasTheNewSchema() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        try await store.change(.add(try fixture.item("Buy milk")))
        let queue = try DatabaseQueue(path: fixture.fileURL.path)
        defer { try? queue.close() }
        let (migrations, states) = try await queue.read { db in
            (
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid"),
                try String.fetchAll(db, sql: "SELECT state FROM item")
            )
        }
        #expect(migrations == ["v1", "v2", "v3", "v4", "v5", "v5-shared-lists", "v6-shared-step-heads", "v7-shared-step-rowid", "v8-calculators", "v9-meta-counts", "v10-earlier-rows"])
        #expect(states == ["active"])
    }
}
