import Foundation
import Testing
import Todos
@testable import TodoStore

/// When the store cannot read its file again after a failure, it forgets
/// what it holds in memory rather than keep showing it; these tests check
/// that a store whose memory was forgotten reads and writes the file as a
/// freshly opened one would.
@Suite("SQLite store: memory forgotten after a failed read")
struct ForgottenMemoryTests {
    @Test(arguments: [SQLiteStore.Items.inMemory, .onDemand])
    func readsAndChangesGoToTheFileAfterMemoryIsForgotten(_ items: SQLiteStore.Items) async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, items: items, now: fixture.clock.now)
        try await store.change(.add(try fixture.item("Mine")))
        _ = try await store.history()
        _ = try await store.historyTree()

        // Another process changes the file; this store does not poll.
        let other = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, now: fixture.clock.now)
        try await other.change(.add(try fixture.item("Theirs")))

        store.forgetMemory()
        #expect(try await store.state() == other.state())
        #expect(try await store.history() == other.history())
        #expect(try await store.historyTree() == other.historyTree())

        // A change after it follows the other process's step, not its own stale one.
        try await store.change(.add(try fixture.item("Mine again")))
        #expect(try await store.history().steps.count == 3)
        try await store.undo()
        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, now: fixture.clock.now)
        #expect(try await reopened.state().todos.items.map(\.title) == ["Mine", "Theirs"])
        #expect(try await reopened.history() == store.history())
    }
}
