import Foundation
import GRDB
import Testing
import Todos
@testable import TodoStore

/// Bulk operations of the SQLite store: restoring, removing or merging *n*
/// items writes *n* item rows, and costs O(*n* log *n*) whatever *n* is.
@Suite("SQLite store, bulk operations")
struct BulkOperationTests {
    static func items(_ count: Int, from first: Int = 0) throws -> [TodoItem] {
        try (first..<(first + count)).map { try TodoItem(id: UUID(), title: "Item \($0)", created: .now) }
    }

    @Test func undoingTheDeletionOfNeighbouringItemsWritesOneRowPerItem() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        let items = try Self.items(1_000)
        try await store.change(items.map { .add($0) }, named: "Add many")
        try await store.change(.todos(.removeItems(items[250..<750].map(\.id))))
        let writes = try ItemWrites(fixture.fileURL)
        try await store.undo()
        // 500 items go back between two that stay: no renumbering of the list.
        #expect(try writes.count() == 500)
        try await store.redo()
        #expect(try writes.count() == 500)
        try await store.undo()
        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect(try await reopened.state().todos.items == items)
    }

    @Test func undoingTheDeletionOfScatteredItemsWritesOneRowPerItem() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        let items = try Self.items(1_000)
        try await store.change(items.map { .add($0) }, named: "Add many")
        let removed = items.enumerated().filter { $0.offset % 3 != 1 }.map(\.element.id)
        try await store.change(.todos(.removeItems(removed)))
        let writes = try ItemWrites(fixture.fileURL)
        try await store.undo()
        #expect(try writes.count() == removed.count)
        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect(try await reopened.state().todos.items == items)
    }

    // 50,000 items: quadratic work here (a scan of the list per item) would
    // not end in any reasonable time.
    @Test func undoOfDeletingEveryOneOf50000ItemsRestoresThemInOrder() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, durability: .processCrash)
        let items = try Self.items(50_000)
        try await store.change(items.map { .add($0) }, named: "Import")
        try await store.change(.todos(.removeItems(items.map(\.id))))
        #expect(try await store.state().todos.isEmpty)
        let writes = try ItemWrites(fixture.fileURL)
        try await store.undo()
        #expect(try writes.count() == items.count)
        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect(try await reopened.state().todos.items == items)
    }

    @Test func mergingAnImportOf50000ItemsIntoALongListAppendsThemInOrder() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, durability: .processCrash)
        let existing = try Self.items(20_000)
        try await store.change(existing.map { .add($0) }, named: "Import")
        let imported = try Self.items(50_000, from: 20_000)
        let writes = try ItemWrites(fixture.fileURL)
        let changed = try TodoItem(id: existing[0].id, title: "Changed", created: existing[0].created)
        let count = try await AppDomain(store: store, now: { .now }, makeID: { UUID() }).send(.merge([changed] + imported))
        #expect(count == ListImporter.Response(imported: 50_001, removed: 0))
        #expect(try writes.count() == 50_001)
        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect(try await reopened.state().todos.items == [changed] + existing.dropFirst() + imported)
        try await reopened.undo()
        #expect(try await SQLiteStore.open(url: fixture.fileURL, pollInterval: nil).state().todos.items == existing)
    }
}

/// Counts the item rows written (inserted, updated or deleted) in a database
/// file, by any connection, from now on: triggers in the file add them up.
private struct ItemWrites {
    let queue: DatabaseQueue

    init(_ url: URL) throws {
        queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE test_item_writes (n INTEGER NOT NULL);
                INSERT INTO test_item_writes VALUES (0);
                CREATE TRIGGER test_item_insert AFTER INSERT ON item BEGIN UPDATE test_item_writes SET n = n + 1; END;
                CREATE TRIGGER test_item_update AFTER UPDATE ON item BEGIN UPDATE test_item_writes SET n = n + 1; END;
                CREATE TRIGGER test_item_delete AFTER DELETE ON item BEGIN UPDATE test_item_writes SET n = n + 1; END;
                """)
        }
    }

    /// The rows written since the last call (or since the counter was made).
    func count() throws -> Int {
        try queue.write { db in
            let count = try Int.fetchOne(db, sql: "SELECT n FROM test_item_writes") ?? -1
            try db.execute(sql: "UPDATE test_item_writes SET n = 0")
            return count
        }
    }
}
