import Foundation
import TestSupport
import Testing

@testable import Todos

/// A shared list opened from what a store saves of it (its items, the
/// latest writer of each part and each row's head), holding none of its
/// rows, does what the list replayed from its whole log does: the same rows,
/// the same list, the same next undo and redo for everyone, asking for the
/// rows it needs (``SharingError/rowsNotHeld(_:)``) with nothing changed.
@Suite("A shared list opened without its rows")
struct SharedListOpenedTests {
    static let people = ["ann", "bob", "cem"]

    /// `shared` as a store would open it: no row held.
    static func opened(_ shared: SharedList) throws -> SharedList {
        try SharedList(opening: shared.list, heads: shared.log.map(\.head), writers: shared.writers, coalescingWindow: shared.coalescingWindow)
    }

    /// `shared` opened as a store opens it: with the writers of its listed items only.
    static func openedWithListedWriters(_ shared: SharedList) throws -> SharedList {
        try SharedList(
            opening: shared.list, heads: shared.log.map(\.head),
            writers: shared.writers.filter { shared.list.contains(id: $0.key.item) }, of: .ofListedItems,
            coalescingWindow: shared.coalescingWindow)
    }

    /// Runs `body` on `lazy`, handing over the rows it asks for from `log`,
    /// as a store does; checks that a request changes nothing and that no
    /// row is asked for twice.
    static func asking<Value>(
        _ lazy: inout SharedList, log: [SharedStep], writers: [ItemPartKey: (seq: Int, author: String)] = [:], seed: UInt64,
        counting asked: inout Int, countingWriters writersAsked: inout Int,
        _ body: (inout SharedList) throws(SharingError) -> Value
    ) throws(SharingError) -> Value {
        var handed = Set<Int>()
        var summarized = Set<Int>()
        var writersHanded = Set<UUID>()
        while true {
            let before = lazy
            do {
                return try body(&lazy)
            } catch .rowsNotHeld(let rows) {
                #expect(lazy.list == before.list && lazy.seq == before.seq, "asking for rows changed the list (seed \(seed))")
                #expect(!rows.isEmpty && rows.allSatisfy { handed.insert($0).inserted }, "rows \(rows) asked for again (seed \(seed))")
                asked += rows.count
                lazy.hold(rows.compactMap { seq in log.first { $0.seq == seq } })
            } catch .summariesNotHeld(let rows) {
                #expect(lazy.list == before.list && lazy.seq == before.seq, "asking for summaries changed the list (seed \(seed))")
                #expect(
                    !rows.isEmpty && rows.allSatisfy { summarized.insert($0).inserted },
                    "summaries \(rows) asked for again (seed \(seed))")
                asked += rows.count
                lazy.hold(summaries: rows.compactMap { seq in log.first { $0.seq == seq }?.summary })
            } catch .writersNotHeld(let items) {
                #expect(lazy.list == before.list && lazy.seq == before.seq, "asking for writers changed the list (seed \(seed))")
                #expect(
                    !items.isEmpty && items.allSatisfy { writersHanded.insert($0).inserted },
                    "the writers of \(items) asked for again (seed \(seed))")
                writersAsked += items.count
                lazy.hold(writers: writers.filter { items.contains($0.key.item) }, of: items)
            }
        }
    }

    @Test(arguments: [21, 22, 23, 24, 25, 26, 27, 28] as [UInt64])
    func anOpenedListDoesWhatTheReplayedOneDoes(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var shared = SharedList()
        var lazy = SharedList()
        var previous = Self.people[0]
        var nextID = 0
        var reopened = 0
        var rowsAskedFor = 0
        var writersAskedFor = 0
        for round in 0..<500 {
            // Opened again from time to time, and some of its rows forgotten.
            if round % 60 == 30 {
                // As a store opens it (the writers of the listed items), and every other time with every writer.
                lazy = try reopened.isMultiple(of: 2) ? Self.openedWithListedWriters(shared) : Self.opened(shared)
                #expect(lazy.heldRowCount == 0)
                reopened += 1
            } else if round % 7 == 0 {
                lazy.forgetRows(keepingNewest: Int.random(in: 0...3, using: &random))
            }
            let person = Bool.random(using: &random) ? previous : Self.people[Int.random(in: 0..<Self.people.count, using: &random)]
            previous = person
            let date = Sharing.start.addingTimeInterval(Double(round) * 0.2)
            let list = shared.list
            let roll = Int.random(in: 0..<100, using: &random)
            typealias Operation = (inout SharedList) throws(SharingError) -> SharedStep
            let operation: Operation
            switch roll {
            case 0..<15 where list.count < 12, 0..<3:
                nextID += 1
                let item = try TodoItem(id: Sharing.id(nextID), title: "Item \(nextID)", created: date)
                let position = Int.random(in: 0...list.count, using: &random)
                operation = { shared throws(SharingError) in try shared.perform([.insert(item, at: position)], named: "Add", by: person, at: date) }
            case 0..<60 where !list.isEmpty:
                let id = try #require(list.item(at: Int.random(in: 0..<list.count, using: &random))).id
                let choice = Int.random(in: 0..<5, using: &random)
                let change: TodoList.Change =
                    switch choice {
                    case 0: .update(id, [.title(to: "\(person) \(round)")], at: date)
                    case 1: .update(id, [list[id: id]?.isCompleted == true ? .reopen : .complete], at: date)
                    case 2: .update(id, [.details(to: "\(round)"), .title(to: "both \(round)")], at: date)
                    case 3: .remove(id)
                    default: .move(id, to: Int.random(in: 0..<list.count, using: &random))
                    }
                let key = choice == 0 ? "title \(id)" : nil
                operation = { shared throws(SharingError) in
                    try shared.perform([change], named: "Change", by: person, at: date, coalescingKey: key)
                }
            case 0..<85:
                operation = { shared throws(SharingError) in try shared.undo(by: person, at: date) }
            default:
                operation = { shared throws(SharingError) in try shared.redo(by: person, at: date) }
            }
            let writers = shared.writers
            let expected = Result { () throws(SharingError) in try operation(&shared) }
            let log = shared.log
            let found = Result { () throws(SharingError) in
                try Self.asking(
                    &lazy, log: log, writers: writers, seed: seed, counting: &rowsAskedFor, countingWriters: &writersAskedFor
                ) { lazy throws(SharingError) in try operation(&lazy) }
            }
            #expect(found == expected, "round \(round): the opened list made another row (seed \(seed))")
            #expect(lazy.list == shared.list, "round \(round): the opened list holds other items (seed \(seed))")
            #expect(lazy.seq == shared.seq, "round \(round) (seed \(seed))")
            #expect(lazy.heldWeight == lazy.log.reduce(0) { $0 + $1.weight }, "round \(round): the weight held (seed \(seed))")
            #expect(shared.heldWeight == shared.log.reduce(0) { $0 + $1.weight }, "round \(round) (seed \(seed))")
            for other in Self.people {
                let next = try Self.asking(
                    &lazy, log: log, seed: seed, counting: &rowsAskedFor, countingWriters: &writersAskedFor
                ) { lazy throws(SharingError) in
                    (try lazy.nextUndo(of: other)?.seq, try lazy.nextRedo(of: other)?.seq)
                }
                #expect(next.0 == (try shared.nextUndo(of: other)?.seq), "round \(round): \(other)'s next undo (seed \(seed))")
                #expect(next.1 == (try shared.nextRedo(of: other)?.seq), "round \(round): \(other)'s next redo (seed \(seed))")
            }
        }
        #expect(reopened >= 8)
        #expect(rowsAskedFor > 50, "the opened lists asked for too few rows to tell (seed \(seed))")
        #expect(writersAskedFor > 0, "the lists opened with the listed items' writers never asked for others (seed \(seed))")
    }

    @Test func rowsLetGoKeepTheNewestAndThoseEachPersonsNextUndoAndRedoRead() throws {
        var shared = SharedList()
        let milk = try TodoItem(id: Sharing.id(1), title: "Milk", created: Sharing.start)
        try shared.perform([.add(milk)], named: "Add", by: "ann", at: Sharing.start)  // row 1
        for n in 2...9 {
            try shared.perform([.update(milk.id, [.details(to: "\(n)")], at: Sharing.start)], named: "Note", by: "bob", at: Sharing.start)
        }
        try shared.undo(by: "bob", at: Sharing.later)  // row 10, of row 9
        shared.forgetRows(keepingNewest: 2)
        // Rows 9 and 10, the newest; Ann's next undo (1) and Bob's (8).
        #expect(shared.log.map(\.seq) == [1, 8, 9, 10])
        for person in ["ann", "bob"] {
            for operation in [SharedList.Operation.change, .undo, .redo] {
                #expect(shared.rowsToRead(for: operation, by: person) == ([], []))
            }
        }
        #expect(throws: SharingError.rowsNotHeld([7])) { try shared.row(7) }
    }

    @Test func aStepOverManyItemsIsLetGoOnceItIsNobodysNextUndoOrRedo() throws {
        var shared = SharedList()
        let items = try (1...50).map { try TodoItem(id: Sharing.id($0), title: "Item \($0)", created: Sharing.start) }
        try shared.perform(items.map { .add($0) }, named: "Add 50", by: "ann", at: Sharing.start)  // row 1, weight 50
        try shared.perform([.completeAll(at: Sharing.start)], named: "Complete all", by: "ann", at: Sharing.start)  // row 2, weight 50
        #expect(shared.heldWeight == 100)
        // Ann's next undo (row 2) stays, whatever it weighs; row 1 does not fit in 10.
        shared.forgetRows(keepingNewest: 10)
        #expect(shared.log.map(\.seq) == [2])
        #expect(shared.heldWeight == 50)
        try shared.perform([.update(items[0].id, [.title(to: "First")], at: Sharing.later)], named: "Rename", by: "bob", at: Sharing.later)
        try shared.perform([.update(items[1].id, [.title(to: "Second")], at: Sharing.later)], named: "Rename", by: "ann", at: Sharing.later)
        // Row 2 is now nobody's next undo: among the newest rows, but heavier than what is kept.
        shared.forgetRows(keepingNewest: 10)
        #expect(shared.log.map(\.seq) == [3, 4])
        #expect(shared.heldWeight == 2)
        #expect(try shared.summary(2).name == "Complete all", "its summary stays")
        // Ann's undo after her rename needs it again: asked for, as a store reads it.
        try shared.undo(by: "ann", at: Sharing.later)
        #expect(throws: SharingError.rowsNotHeld([2])) { try shared.undo(by: "ann", at: Sharing.later) }
    }

    @Test func aListOpenedFromHeadsThatSkipARowIsRefused() throws {
        var shared = SharedList()
        let milk = try TodoItem(id: Sharing.id(1), title: "Milk", created: Sharing.start)
        try shared.perform([.add(milk)], named: "Add", by: "ann", at: Sharing.start)
        try shared.perform([.remove(milk.id)], named: "Delete", by: "ann", at: Sharing.start)
        #expect(throws: SharingError.notTheNextRow(expected: 1, found: 2)) {
            try SharedList(opening: shared.list, heads: [shared.log[1].head], writers: shared.writers)
        }
    }

    @Test func anUndoOfADeleteAsksForTheRowThatSaysWhereTheItemStood() throws {
        var shared = SharedList()
        let (milk, eggs, bread) = (
            try TodoItem(id: Sharing.id(1), title: "Milk", created: Sharing.start),
            try TodoItem(id: Sharing.id(2), title: "Eggs", created: Sharing.start),
            try TodoItem(id: Sharing.id(3), title: "Bread", created: Sharing.start)
        )
        try shared.perform([.add(milk), .add(eggs), .add(bread)], named: "Add", by: "ann", at: Sharing.start)  // row 1
        try shared.perform([.remove(bread.id)], named: "Delete “Bread”", by: "ann", at: Sharing.start)  // row 2
        try shared.perform([.remove(eggs.id)], named: "Delete “Eggs”", by: "bob", at: Sharing.start)  // row 3
        var lazy = try Self.opened(shared)
        // Ann's undo reads her step (row 2), then where Eggs, which Bread
        // followed, stood when Bob deleted it (row 3): after Milk.
        #expect(throws: SharingError.rowsNotHeld([2])) { try lazy.undo(by: "ann", at: Sharing.later) }
        #expect(lazy.rowsToRead(for: .undo, by: "ann") == ([2], []))
        #expect(lazy.rowsToRead(for: .change, by: "ann") == ([], [2]))
        #expect(lazy.rowsToRead(for: .redo, by: "ann") == ([], []))
        lazy.hold([shared.log[1]])
        #expect(lazy.rowsToRead(for: .undo, by: "ann") == ([], []))
        #expect(throws: SharingError.rowsNotHeld([3])) { try lazy.undo(by: "ann", at: Sharing.later) }
        #expect(lazy.list == shared.list && lazy.seq == 3)
        lazy.hold([shared.log[2]])
        let undo = try lazy.undo(by: "ann", at: Sharing.later)
        #expect(undo == (try shared.undo(by: "ann", at: Sharing.later)))
        #expect(lazy.list.items.map(\.title) == ["Milk", "Bread"])
    }
}
