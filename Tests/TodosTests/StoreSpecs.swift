import Foundation
import Rewind
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
    func history() throws {
        let store = InMemoryStore(now: clock.function)
        let milk = try Fixtures.item("Buy milk", 1)
        try store.change(.add(milk))
        try store.change([.remove(milk.id)], named: nil)
        #expect(store.history().undoTitle == "Undo Delete “Buy milk”")
        #expect(try store.undo() == "Delete “Buy milk”")
        #expect(store.history().redoTitle == "Redo Delete “Buy milk”")
        #expect(store.history() == HistoryOverview(steps: [
            .init(name: "Add “Buy milk”", date: clock.now), .init(name: "Delete “Buy milk”", date: clock.now),
        ], position: 1))
        #expect(try store.redo() == "Delete “Buy milk”")
        #expect(try store.redo() == nil)
        try store.jump(to: 1)
        #expect(store.state().todos.items == [milk])
        try store.reset()
        #expect(store.state() == AppState())
        #expect(store.history().steps.isEmpty)
    }

    @Test("restores a saved history and undoes across the restart")
    func restore() throws {
        let first = InMemoryStore(now: clock.function)
        try first.change(.add(try Fixtures.item("a", 1)))
        try first.change(.add(try Fixtures.item("b", 2)))
        try first.undo()
        let saved = first.steps()
        let data = try TodoJSON.encode(saved.steps)
        let steps = try TodoJSON.decode([HistoryStep<AppState.Change>].self, from: data)
        let state = try TodoJSON.decode(AppState.self, from: try TodoJSON.encode(first.state()))
        let second = try InMemoryStore(state, steps: steps, position: saved.position, now: clock.function)
        try second.redo()
        #expect(second.state().todos.items.map(\.title) == ["a", "b"])
        try second.jump(to: 0)
        #expect(second.state() == AppState())
        #expect(throws: HistoryError.invalidRestoredPosition(3, stepCount: 2)) {
            try InMemoryStore(state, steps: steps, position: 3, now: clock.function)
        }
    }

    @Test("tells subscribers after every change until cancelled")
    func updated() throws {
        let store = InMemoryStore(now: clock.function)
        let count = Inbox()
        let subscription = store.updated { count.handler(.history(.cmd(.undo))) }
        try store.change(.add(try Fixtures.item("a", 1)))
        try store.undo()
        #expect(count.messages.count == 2)
        subscription.cancel()
        try store.redo()
        #expect(count.messages.count == 2)
    }

    @Test("writes one journal entry per operation with the touched items")
    func journal() throws {
        let journal = RecordingJournal()
        let store = InMemoryStore(now: clock.function, journal: journal)
        try store.change(.add(try Fixtures.item("a", 1)), .add(try Fixtures.item("b", 2)))
        try store.change(.update(Fixtures.id(2), [.finish], at: clock.now))
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
        let store = InMemoryStore(limit: 2, now: clock.function, journal: journal)
        try store.change(.add(try Fixtures.item("a", 1)))
        try store.change(.add(try Fixtures.item("b", 2)))
        try store.undo()
        let state = store.state()
        let history = store.history()
        journal.fail(true)
        #expect(throws: RecordingJournal.DiskFull.self) { try store.change(.add(try Fixtures.item("c", 3))) }
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
        let store = InMemoryStore(now: clock.function)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 1...100 {
                group.addTask { try store.change(.add(try Fixtures.item("item \(n)", UInt8(n)))) }
            }
            try await group.waitForAll()
        }
        #expect(store.state().todos.count == 100)
        #expect(store.history().steps.count == 100)
    }

    @Test("a refused change records no step")
    func refused() throws {
        let store = InMemoryStore(now: clock.function)
        #expect(throws: TodoError.itemNotFound(Fixtures.id(1))) { try store.change(.remove(Fixtures.id(1))) }
        #expect(throws: TodoError.nothingToChange("no change was given")) { try store.change([], named: nil) }
        #expect(store.history().steps.isEmpty)
    }
}
