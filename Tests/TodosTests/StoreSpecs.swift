import Foundation
import Rewind
import TestSupport
import Testing
@testable import Todos

/// A journal that records entries, and fails when told to.
final class RecordingJournal: StoreJournal, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [JournalEntry] = []
    private var failing = false

    var entries: [JournalEntry] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    func fail(_ on: Bool) {
        lock.lock()
        failing = on
        lock.unlock()
    }

    struct DiskFull: Error {}

    func write(_ entry: JournalEntry, state: AppState) throws {
        lock.lock()
        defer { lock.unlock() }
        if failing { throw DiskFull() }
        recorded.append(entry)
    }
}

@Suite("InMemoryStore")
struct StoreSpecs {
    let clock = TestClock()

    @Test("names steps, undoes, redoes and lists the history")
    func history() async throws {
        let store = InMemoryStore(now: clock.now)
        let milk = try Fixtures.item("Buy milk", 1)
        try await store.change(.add(milk))
        try await store.change([.remove(milk.id)], named: nil)
        #expect(await store.history().undoTitle == "Undo Delete “Buy milk”")
        #expect(try await store.undo() == "Delete “Buy milk”")
        #expect(await store.history().redoTitle == "Redo Delete “Buy milk”")
        #expect(await store.history() == HistoryOverview(steps: [
            .init(name: "Add “Buy milk”", date: clock.date), .init(name: "Delete “Buy milk”", date: clock.date),
        ], position: 1))
        #expect(try await store.redo() == "Delete “Buy milk”")
        #expect(try await store.redo() == nil)
        try await store.jump(to: 1)
        #expect(try await store.state().todos.items == [milk])
        try await store.reset()
        #expect(try await store.state() == AppState())
        #expect(await store.history().steps.isEmpty)
    }

    @Test("restores a saved history and undoes across the restart")
    func restore() async throws {
        let first = InMemoryStore(now: clock.now)
        try await first.change(.add(try Fixtures.item("a", 1)))
        try await first.change(.add(try Fixtures.item("b", 2)))
        try await first.undo()
        let saved = await first.steps()
        let data = try TodoJSON.encode(saved.steps)
        let steps = try TodoJSON.decode([HistoryStep<AppState.Change>].self, from: data)
        let state = try TodoJSON.decode(AppState.self, from: try TodoJSON.encode(try await first.state()))
        let second = try InMemoryStore(state, steps: steps, position: saved.position, now: clock.now)
        try await second.redo()
        #expect(try await second.state().todos.items.map(\.title) == ["a", "b"])
        try await second.jump(to: 0)
        #expect(try await second.state() == AppState())
        #expect(throws: HistoryError.invalidRestoredPosition(3, stepCount: 2)) {
            try InMemoryStore(state, steps: steps, position: 3, now: clock.now)
        }
    }

    @Test("tells subscribers after every change until destroyed")
    func updated() async throws {
        let store = InMemoryStore(now: clock.now)
        let updates = await store.updates()
        try await store.change(.add(try Fixtures.item("a", 1)))
        try await store.undo()
        try await store.destroy()
        try await store.redo()
        var count = 0
        for await _ in updates { count += 1 }
        // The change, the undo, and the reset of `destroy`; then the stream ends.
        #expect(count == 3)
    }

    @Test("writes one journal entry per operation with the touched items")
    func journal() throws {
        let journal = RecordingJournal()
        let store = StoreCore(now: clock.now, journal: journal)
        try store.change([.add(try Fixtures.item("a", 1)), .add(try Fixtures.item("b", 2))], named: nil)
        try store.change([.update(Fixtures.id(2), [.complete], at: clock.date)], named: nil)
        try store.undo()
        try store.redo()
        try store.jump(to: 0)
        try store.reset()
        let entries = journal.entries
        #expect(entries.map(\.operation) == [.change, .change, .undo, .redo, .jump, .reset])
        #expect(entries[0].touchedItemIDs == [Fixtures.id(1), Fixtures.id(2)])
        #expect(entries[1].touchedItemIDs == [Fixtures.id(2)])
        #expect(entries[1].position == 2)
        #expect(entries[4].position == 0)
        #expect(entries[5].touchedItemIDs == nil)
    }

    @Test("a failed journal write reverts the operation, redo steps included")
    func rollback() throws {
        let journal = RecordingJournal()
        let store = StoreCore(limit: 2, now: clock.now, journal: journal)
        try store.change([.add(try Fixtures.item("a", 1))], named: nil)
        try store.change([.add(try Fixtures.item("b", 2))], named: nil)
        try store.undo()
        let state = store.state()
        let history = store.history()
        journal.fail(true)
        #expect(throws: RecordingJournal.DiskFull.self) { try store.change([.add(try Fixtures.item("c", 3))], named: nil) }
        #expect(store.state() == state)
        #expect(store.history() == history)
        #expect(throws: RecordingJournal.DiskFull.self) { try store.undo() }
        #expect(throws: RecordingJournal.DiskFull.self) { try store.redo() }
        #expect(throws: RecordingJournal.DiskFull.self) { try store.reset() }
        #expect(store.state() == state)
        #expect(store.history() == history)
        journal.fail(false)
        try store.redo()
        #expect(store.state().todos.count == 2)
    }

    @Test("concurrent changes from many tasks are all kept")
    func concurrency() async throws {
        let store = InMemoryStore(now: clock.now)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 1...100 {
                group.addTask { try await store.change(.add(try Fixtures.item("item \(n)", UInt8(n)))) }
            }
            try await group.waitForAll()
        }
        #expect(try await store.state().todos.count == 100)
        #expect(await store.history().steps.count == 100)
    }

    @Test("a refused change records no step")
    func refused() async throws {
        let store = InMemoryStore(now: clock.now)
        await #expect(throws: TodoError.itemNotFound(Fixtures.id(1))) { try await store.change(.remove(Fixtures.id(1))) }
        await #expect(throws: TodoError.nothingToChange("no change was given")) { try await store.change([], named: nil) }
        #expect(await store.history().steps.isEmpty)
    }
}
