import Foundation
import Testing
import Todos
@testable import TodoStore

/// Older versions let dates past the year 9999 (or before the year 1) into
/// a store and then could not read the file back. Such a store opens, shows
/// the item, and its history still undoes and redoes.
@Suite("Stores holding dates out of range")
struct LegacyDateTests {
    /// Items as an older version wrote them: a moment in the year 10240, a
    /// span ending in the year 10000, and an item created in the year 0.
    static let legacyItems = [
        #"{"id": "00000000-0000-4000-8000-000000000001", "title": "Far", "created": "2026-01-01T00:00:00.000Z", "due": {"kind": "date", "date": "10240-03-17T00:00:00.000Z"}}"#,
        #"{"id": "00000000-0000-4000-8000-000000000002", "title": "Span", "created": "2026-01-01T00:00:00.000Z", "due": {"kind": "span", "start": "9999-12-31T00:00:00.000Z", "end": "10000-01-01T00:00:00.000Z"}}"#,
        #"{"id": "00000000-0000-4000-8000-000000000003", "title": "Old", "created": "-0001-12-31T00:01:00.000Z"}"#,
    ]

    @Test(arguments: [StoreKind.sqlite, .jsonFile])
    func aStoreHoldingThemOpensAndUndoes(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let items = try Self.legacyItems.map { try TodoJSON.decode(TodoItem.self, from: Data($0.utf8), reading: .store) }
        do {
            let store = try await fixture.open()
            for item in items { try await store.change(.add(item)) }
            (store as? SQLiteStore)?.close()
        }
        let reopened = try await fixture.open()
        #expect(try await reopened.state().todos.items == items)
        #expect(try await reopened.history().steps.count == items.count)
        #expect(try await reopened.undo() != nil)
        #expect(try await reopened.state().todos.items == Array(items.prefix(2)))
        #expect(try await reopened.redo() != nil)
        #expect(try await reopened.state().todos.items == items)
        let exported = try TodoJSON.encode(try await reopened.state())
        #expect(try TodoJSON.decode(AppState.self, from: exported, reading: .store) == (try await reopened.state()))
    }
}
