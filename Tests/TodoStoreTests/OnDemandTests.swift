import Foundation
import GRDB
import Testing
import Rewind
import Todos
import TodoStore
import TestSupport

/// A store opened with its items on demand applies a change to the rows it
/// names, and must mean by every change what the list in memory means.
@Suite("SQLite store with its items on demand")
struct OnDemandTests {
    /// What a change or a move of the history answered, to compare two stores.
    private enum Answer: Equatable {
        case step(name: String, changes: [AppState.Change])
        case moved(String?)
        case refused(String)
    }

    private static func answer(_ body: () async throws -> Answer) async -> Answer {
        do {
            return try await body()
        } catch {
            return .refused(String(describing: error))
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyChangeRowByRowAnswersAsTheListInMemoryDoes(seed: UInt64) async throws {
        let fixture = try StoreFixture(.sqlite)
        let rows = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, items: .onDemand, now: fixture.clock.now)
        let memory = InMemoryStore(now: fixture.clock.now)
        var generator = SeededGenerator(seed: seed)
        var refused = 0
        for step in 0..<220 {
            let list = try await memory.state().todos
            let some = { (generator: inout SeededGenerator) -> UUID in
                // Now and then an id that names no item.
                list.ids.isEmpty || Int.random(in: 0..<10, using: &generator) == 0
                    ? UUID() : list.ids[Int.random(in: 0..<list.count, using: &generator)]
            }
            let change: AppState.Change?
            switch Int.random(in: 0..<12, using: &generator) {
            case 0, 1:
                change = .add(try fixture.item("Item \(step)"))
            case 2, 3:
                // Positions one past either end are refused by both.
                change = .insert(try fixture.item("Item \(step)"), at: Int.random(in: -1...(list.count + 1), using: &generator))
            case 4:
                change = .remove(some(&generator))
            case 5:
                let count = Int.random(in: 0...4, using: &generator)
                change = .todos(.removeItems((0..<count).map { _ in some(&generator) }))
            case 6:
                change = .update(some(&generator), [.title(to: "Renamed \(step)"), .complete], at: fixture.clock.now())
            case 7:
                let id = some(&generator)
                let item = try list[id: id] ?? fixture.item("Nowhere")
                change = .todos(.replace([try item.alter([.details(to: "Edited \(step)")], at: fixture.clock.now())]))
            case 8:
                change = .move(some(&generator), to: Int.random(in: -1...list.count, using: &generator))
            default:
                change = nil
            }
            let (expected, actual): (Answer, Answer)
            if let change {
                expected = await Self.answer {
                    let made = try await memory.change([change], named: nil)
                    return .step(name: made.name, changes: made.changes)
                }
                actual = await Self.answer {
                    let made = try await rows.change([change], named: nil)
                    return .step(name: made.name, changes: made.changes)
                }
            } else {
                let undo = Int.random(in: 0..<3, using: &generator) > 0
                expected = await Self.answer { .moved(undo ? try await memory.undo() : try await memory.redo()) }
                actual = await Self.answer { .moved(undo ? try await rows.undo() : try await rows.redo()) }
            }
            #expect(actual == expected, "step \(step): \(String(describing: change))")
            if case .refused = expected { refused += 1 }
            if step % 20 == 0 {
                let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, now: fixture.clock.now)
                #expect(try await reopened.state() == memory.state(), "after step \(step)")
                #expect(try await reopened.history().steps.map(\.name) == memory.history().steps.map(\.name))
            }
        }
        #expect(!rows.keepsListInMemory, "no change here needs the whole list")
        #expect((20...120).contains(refused), "refusals are compared too, not only steps")
    }

    @Test func insertingAtOnePlaceUntilNoRankFitsRenumbersTheList() async throws {
        let fixture = try StoreFixture(.sqlite)
        let rows = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, items: .onDemand, now: fixture.clock.now)
        let memory = InMemoryStore(now: fixture.clock.now)
        let ends = [try fixture.item("First"), try fixture.item("Last")]
        for item in ends {
            try await rows.change(.add(item))
            try await memory.change(.add(item))
        }
        // Halving the room between two ranks runs out after about 50 inserts.
        for index in 0..<80 {
            let item = try fixture.item("Between \(index)")
            try await rows.change(.insert(item, at: 1))
            try await memory.change(.insert(item, at: 1))
        }
        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, now: fixture.clock.now)
        #expect(try await reopened.state() == memory.state())
        try await rows.jump(to: 2)
        #expect(try await SQLiteStore(url: fixture.fileURL, pollInterval: nil).state().todos.items == ends)
    }

    @Test func aChangeOfEveryItemReadsTheListOnceAndKeepsIt() async throws {
        let fixture = try StoreFixture(.sqlite)
        let items = try (0..<100).map { try fixture.item("Item \($0)") }
        let writer = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, now: fixture.clock.now)
        try await writer.change(items.map { .add($0) }, named: "Add 100 items")
        let rows = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, items: .onDemand, now: fixture.clock.now)
        #expect(!rows.keepsListInMemory)
        #expect(try await rows.items(withIDs: [items[3].id, UUID(), items[1].id]) == [items[3], items[1]])
        #expect(!rows.keepsListInMemory, "reading two items reads two rows")
        // More items than a change applies row by row: the list is read.
        try await rows.change(.todos(.removeItems(items.map(\.id))))
        #expect(rows.keepsListInMemory)
        #expect(try await rows.undo() == "Delete 100 items")
        #expect(try await SQLiteStore(url: fixture.fileURL, pollInterval: nil).state().todos.items == items)
    }

    @Test func positionsAndAMoveNextToAnotherItemReadOnlyTheirRows() async throws {
        let fixture = try StoreFixture(.sqlite)
        let items = try (0..<100).map { try fixture.item("Item \($0)") }
        let writer = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, now: fixture.clock.now)
        try await writer.change(items.map { .add($0) }, named: "Add 100 items")
        let rows = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, items: .onDemand, now: fixture.clock.now)
        let stranger = UUID()
        #expect(try await rows.positions(of: [items[42].id, stranger, items[0].id])
            == ListPositions(positions: [items[42].id: 42, items[0].id: 0], count: 100))
        let app = AppDomain(store: rows, now: fixture.clock.now, makeID: UUID.init)
        let moved = try await app.send(.move(items[99].id, before: items[10].id))
        #expect(moved == items[99])
        #expect(try await rows.positions(of: [items[99].id, items[10].id]).positions == [items[99].id: 10, items[10].id: 11])
        #expect(!rows.keepsListInMemory, "a move reads the rows it names, and counts the others")
        #expect(try await SQLiteStore(url: fixture.fileURL, pollInterval: nil).state().todos.items.map(\.title)[9...11]
            == ["Item 9", "Item 99", "Item 10"])
    }

    /// Adding at the end finds no position, so an import of any size is
    /// applied row by row; its undo removes every item, which row by row
    /// would count the rows before each one (the undo of 100,000 items took
    /// minutes), so it reads the list once instead.
    @Test func manyAddsGoRowByRowAndTheirUndoReadsTheListOnce() async throws {
        let fixture = try StoreFixture(.sqlite)
        let first = try fixture.item("Already there")
        let items = try (0..<100).map { try fixture.item("Item \($0)") }
        let rows = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, items: .onDemand, now: fixture.clock.now)
        try await rows.change(.add(first))
        try await rows.change(items.map { .add($0) }, named: "Import 100 items")
        #expect(!rows.keepsListInMemory, "adds at the end are written row by row")
        #expect(try await rows.undo() == "Import 100 items")
        #expect(rows.keepsListInMemory, "100 removals read the list instead of counting rows 100 times")
        #expect(try await SQLiteStore(url: fixture.fileURL, pollInterval: nil).state().todos.items == [first])
        #expect(try await rows.redo() == "Import 100 items")
        #expect(try await SQLiteStore(url: fixture.fileURL, pollInterval: nil).state().todos.items == [first] + items)
    }

    /// A jump across many steps is one transaction: once its steps have
    /// found as many positions row by row as one step may, the rest are
    /// applied to the list read into memory, and the result is the same.
    @Test func aJumpAcrossManyStepsReadsTheListPartWayAndLandsWhereTheListInMemoryDoes() async throws {
        let fixture = try StoreFixture(.sqlite)
        let memory = InMemoryStore(now: fixture.clock.now)
        let rows = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, items: .onDemand, now: fixture.clock.now)
        for index in 0..<100 {
            // Every third one in the middle, so that positions matter.
            let change: AppState.Change = index % 3 == 2
                ? .insert(try fixture.item("Inserted \(index)"), at: index / 2) : .add(try fixture.item("Item \(index)"))
            try await rows.change([change], named: nil)
            try await memory.change([change], named: nil)
        }
        #expect(!rows.keepsListInMemory)
        // Each undo of the way down removes one item: 90 positions found.
        try await rows.jump(to: 10)
        try await memory.jump(to: 10)
        #expect(rows.keepsListInMemory, "past the budget of positions the list is read")
        #expect(try await SQLiteStore(url: fixture.fileURL, pollInterval: nil).state() == memory.state())
        try await rows.jump(to: 95)
        try await memory.jump(to: 95)
        #expect(try await SQLiteStore(url: fixture.fileURL, pollInterval: nil).state() == memory.state())
        let (history, expected) = (try await rows.history(), await memory.history())
        #expect(history.position == 95 && expected.position == 95)
        #expect(history.steps.map(\.name) == expected.steps.map(\.name))
    }

    @Test func anotherProcessesChangeIsSeenByTheNextChange() async throws {
        let fixture = try StoreFixture(.sqlite)
        let rows = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, items: .onDemand, now: fixture.clock.now)
        let other = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, now: fixture.clock.now)
        let milk = try fixture.item("Buy milk")
        try await rows.change(.add(milk))
        try await other.change(.update(milk.id, [.complete], at: fixture.clock.now()))
        // The log moved on in the other store: this one undoes that step.
        #expect(try await rows.undo() == "Complete “Buy milk”")
        #expect(try await rows.history().position == 1)
        #expect(try await SQLiteStore(url: fixture.fileURL, pollInterval: nil).state().todos[id: milk.id]?.isCompleted == false)
    }

    @Test func aFilteredListingReadFromTheRowsIsTheListsOwn() async throws {
        let fixture = try StoreFixture(.sqlite)
        let writer = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, now: fixture.clock.now)
        var generator = SeededGenerator(seed: 5)
        let now = fixture.clock.now()
        for index in 0..<120 {
            let offset = Double(Int.random(in: -5...5, using: &generator)) * 86_400
            let due: TodoDate = Bool.random(using: &generator) ? .unknown : .date(now.addingTimeInterval(offset))
            var item = try TodoItem(
                id: UUID(), title: "Item \(index)", due: due, created: fixture.clock.now())
            if Bool.random(using: &generator) { item = try item.alter([.complete], at: fixture.clock.now()) }
            let position = Int.random(in: 0...index, using: &generator)
            try await writer.change(.insert(item, at: position))
        }
        let list = try await writer.state().todos
        let rows = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, items: .onDemand)
        for state in [nil, TodoItem.State.active, .completed] as [TodoItem.State?] {
            for dueOnly in [false, true] {
                let (items, counts) = try await rows.items(in: state, dueOnly: dueOnly, now: now)
                let expected = list.items.filter { item in
                    (state.map { item.state == $0 } ?? true) && (!dueOnly || item.due != .unknown)
                }
                #expect(items == expected, "state \(String(describing: state)), due only \(dueOnly)")
                #expect(counts == list.counts(now: now))
                let inMemory = try await writer.items(in: state, dueOnly: dueOnly, now: now)
                #expect(inMemory.items == expected && inMemory.counts == counts)
            }
        }
        #expect(list.counts(now: now).overdue > 0 && list.counts(now: now).completed > 0)
        #expect(!rows.keepsListInMemory)
    }

    @Test func damageIsFoundWhereItIsReadAndNothingIsWritten() async throws {
        let fixture = try StoreFixture(.sqlite)
        let bytes = try await fixture.damagedSQLiteFile()
        do {
            let rows = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, items: .onDemand)
            await #expect(throws: StoreError.self, "reading every item crosses the damage") { try await rows.state() }
            await #expect(throws: StoreError.self) { try await rows.change(.todos(.completeAll(at: fixture.clock.now()))) }
        } catch let error as StoreError {
            // Damage the open itself read (the schema) is refused there.
            #expect(error.isDamage, "\(error)")
        }
        #expect(try Data(contentsOf: fixture.fileURL) == bytes, "nothing was written")
    }

    /// Damage found by one process keeps the next from writing, even to
    /// pages of its own, until the file is restored.
    @Test func damageFoundOnceRefusesEveryWriteUntilTheFileIsRestored() async throws {
        let fixture = try StoreFixture(.sqlite)
        let bytes = try await fixture.damagedSQLiteFile()
        let mark = fixture.fileURL.path + "-damaged"
        do {
            let reader = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, items: .onDemand)
            await #expect(throws: StoreError.self, "reading every item crosses the damage") { try await reader.state() }
        }
        #expect(FileManager.default.fileExists(atPath: mark))
        // The next process adds an item: written to pages of its own, it would go ahead.
        let writer = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, items: .onDemand)
        let refused = await #expect(throws: StoreError.self) { try await writer.change(.add(try fixture.item("New"))) }
        guard case .corrupt = refused else {
            Issue.record("expected the damage, got \(String(describing: refused))")
            return
        }
        #expect(try Data(contentsOf: fixture.fileURL) == bytes, "nothing was written")
        // Restored (here: a new file in its place), the list is written again and the mark goes.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: fixture.fileURL.path + suffix) }
        let restored = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, items: .onDemand)
        try await restored.change(.add(try fixture.item("After")))
        #expect(try await restored.state().todos.items.map(\.title) == ["After"])
        #expect(!FileManager.default.fileExists(atPath: mark))
    }
}

extension StoreError {
    /// Whether this error says the file is damaged.
    fileprivate var isDamage: Bool {
        switch self {
        case .corrupt, .notADatabase: true
        default: false
        }
    }
}
