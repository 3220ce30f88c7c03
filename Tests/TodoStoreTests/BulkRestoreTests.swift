import Foundation
import GRDB
import Testing
import Todos
@testable import TodoStore

/// Restoring, removing and merging many items writes their rows only, in
/// one pass: undo of "delete all" once took seconds per thousand items,
/// because each restored item searched the list for its position and its
/// neighbours, and a long run of restored items renumbered the whole list.
@Suite("SQLite store: bulk changes")
struct BulkRestoreTests {
    /// A list whose items were each inserted at the front, so that their
    /// ranks are negative: renumbering the list would change every one.
    func makeList(_ count: Int) async throws -> (StoreFixture, SQLiteStore, [TodoItem]) {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        var items: [TodoItem] = []
        for index in 0..<count {
            let item = try TodoItem(id: UUID(), title: "Item \(index)", created: .now)
            try await store.change(.insert(item, at: 0))
            items.insert(item, at: 0)
        }
        return (fixture, store, items)
    }

    func ranks(_ fixture: StoreFixture) throws -> [String: Double] {
        let queue = try DatabaseQueue(path: fixture.fileURL.path)
        defer { try? queue.close() }
        return try queue.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, rank FROM item").map {
                (($0["id"] as String?) ?? "", ($0["rank"] as Double?) ?? .nan)
            })
        }
    }

    @Test(arguments: [(100, 300), (0, 300), (700, 300), (0, 1000)])
    func undoingARemovalWritesOnlyTheRestoredRows(start: Int, count: Int) async throws {
        let (fixture, store, items) = try await makeList(1_000)
        let removed = items[start..<(start + count)].map(\.id)
        let before = try ranks(fixture)
        try await store.change(.todos(.removeItems(removed)))
        #expect(try await store.undo() != nil)
        let after = try ranks(fixture)
        let kept = Set(items.map(\.id)).subtracting(removed)
        for id in kept {
            #expect(after[id.uuidString] == before[id.uuidString], "an item that was not restored was renumbered")
        }
        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect(Array(try await reopened.state().todos.ids) == items.map(\.id))
        #expect(try await store.redo() != nil)
        let again = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect(Array(try await again.state().todos.ids) == items.map(\.id).filter { kept.contains($0) })
    }

    @Test func restoringEveryOtherItemKeepsTheOrder() async throws {
        let (fixture, store, items) = try await makeList(400)
        let removed = items.enumerated().filter { $0.offset % 2 == 0 }.map(\.element.id)
        try await store.change(.todos(.removeItems(removed)))
        #expect(try await store.undo() != nil)
        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect(Array(try await reopened.state().todos.ids) == items.map(\.id))
    }

    @Test func aMergeOfManyItemsKeepsTheOrderAndTheKnownRows() async throws {
        let (fixture, store, items) = try await makeList(300)
        let replaced = try items.prefix(100).map { try $0.alter(.title(to: "Merged \($0.title)"), at: .now) }
        let added = try (0..<500).map { try TodoItem(id: UUID(), title: "New \($0)", created: .now) }
        let before = try ranks(fixture)
        try await store.change([.todos(.replace(replaced))] + added.map { .add($0) }, named: "Import")
        let after = try ranks(fixture)
        for item in items { #expect(after[item.id.uuidString] == before[item.id.uuidString]) }
        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect(Array(try await reopened.state().todos.ids) == items.map(\.id) + added.map(\.id))
        #expect(try await reopened.state().todos.items.prefix(100).allSatisfy { $0.title.hasPrefix("Merged ") })
    }
}
