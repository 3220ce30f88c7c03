import Foundation
import TestSupport
import Testing

@testable import Todos

/// Several simulated people add, rename, complete, delete, move, undo and
/// redo on one list at random. A reference model, kept apart from the list,
/// records who last changed each field of each item, from the list's values
/// before and after every operation; the invariants are checked after each.
@Suite("A shared list under random use by several people")
struct SharedListRandomizedTests {
    /// Who last changed each field of each item, learnt only from values.
    ///
    /// A deleted item keeps the writers of its fields: bringing it back
    /// (an undo of the delete) restores the values they wrote, so it writes
    /// no field; a field that comes back with another value is written.
    struct ReferenceWriters {
        var latest: [UUID: [String: String]] = [:]
        var lastValues: [UUID: [String: String]] = [:]

        static let names = ["title", "details", "state", "due", "location"]

        static func fields(_ item: TodoItem) -> [String: String] {
            [
                "title": item.title, "details": item.details, "state": item.state.rawValue,
                "due": "\(item.due)", "location": "\(item.location)",
            ]
        }

        /// Notes `author` as the writer of every field whose value changed
        /// between `before` and `after`.
        mutating func observe(_ before: TodoList, _ after: TodoList, by author: String) {
            for id in Set(before.ids).union(after.ids) {
                guard let new = after[id: id].map(Self.fields) else { continue }
                let old = before[id: id].map(Self.fields) ?? lastValues[id]
                for name in Self.names where old?[name] != new[name] {
                    latest[id, default: [:]][name] = author
                }
                lastValues[id] = new
            }
        }
    }

    static let people = ["ann", "bob", "cem"]

    /// After every row appended by a change, an undo or a redo (joined
    /// renames, undos of steps others wrote over, deletes and their undos
    /// among them), taking the row back leaves the list exactly as it was
    /// before it: items, log, writers and every person's stacks; and the
    /// list taken back goes on as the one that never had the row.
    @Test(arguments: [11, 12, 13, 14, 15, 16] as [UInt64])
    func takingBackTheLastRowLeavesTheListAsItWasBeforeIt(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var shared = SharedList()
        var previous = Self.people[0]
        var nextID = 0
        var takenBack = 0
        for round in 0..<400 {
            let person = Bool.random(using: &random) ? previous : Self.people[Int.random(in: 0..<Self.people.count, using: &random)]
            previous = person
            let before = shared
            let date = Sharing.start.addingTimeInterval(Double(round) * 0.2)
            let roll = Int.random(in: 0..<100, using: &random)
            switch roll {
            case 0..<15 where before.list.count < 12, 0..<3:
                nextID += 1
                let item = try TodoItem(id: Sharing.id(nextID), title: "Item \(nextID)", created: date)
                let position = Int.random(in: 0...before.list.count, using: &random)
                try shared.perform([.insert(item, at: position)], named: "Add", by: person, at: date)
            case 0..<60 where !before.list.isEmpty:
                let id = try #require(before.list.item(at: Int.random(in: 0..<before.list.count, using: &random))).id
                let choice = Int.random(in: 0..<5, using: &random)
                let change: TodoList.Change =
                    switch choice {
                    case 0: .update(id, [.title(to: "\(person) \(round)")], at: date)
                    case 1: .update(id, [before.list[id: id]?.isCompleted == true ? .reopen : .complete], at: date)
                    case 2: .update(id, [.details(to: "\(round)"), .title(to: "both \(round)")], at: date)
                    case 3: .remove(id)
                    default: .move(id, to: Int.random(in: 0..<before.list.count, using: &random))
                    }
                _ = try? shared.perform([change], named: "Change", by: person, at: date, coalescingKey: choice == 0 ? "title \(id)" : nil)
            case 0..<85:
                _ = try? shared.undo(by: person, at: date)
            default:
                _ = try? shared.redo(by: person, at: date)
            }
            guard shared.log.count == before.log.count + 1 else {
                #expect(shared.holdsTheSameState(as: before), "a refused operation changed the list (seed \(seed))")
                continue
            }
            var back = shared
            let tookBack = back.takeBackLastRow()
            #expect(tookBack, "row \(shared.log.count) could not be taken back (seed \(seed))")
            #expect(
                back.holdsTheSameState(as: before),
                "taking back row \(shared.log.count) (\(shared.log[shared.log.count - 1].kind)) left another list (seed \(seed))")
            let tookBackAgain = back.takeBackLastRow()
            #expect(!tookBackAgain, "a second row was taken back (seed \(seed))")
            takenBack += 1
            // Every fifth time, the list goes on from the one taken back.
            if round % 5 == 0 { shared = back }
        }
        #expect(takenBack > 200, "too few rows were taken back to tell (seed \(seed))")
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func invariantsHoldAfterEveryOperation(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var shared = SharedList()
        var previous = Self.people[0]
        var reference = ReferenceWriters()
        var nextID = 0
        for round in 0..<400 {
            // Half the time the same person acts again, so that their renames can join.
            let person = Bool.random(using: &random) ? previous : Self.people[Int.random(in: 0..<Self.people.count, using: &random)]
            previous = person
            let before = shared.list
            let rowsBefore = shared.log.count
            let roll = Int.random(in: 0..<100, using: &random)
            let date = Sharing.start.addingTimeInterval(Double(round) * 0.3)
            switch roll {
            case 0..<15 where before.count < 12, 0..<3:
                nextID += 1
                let item = try TodoItem(id: Sharing.id(nextID), title: "Item \(nextID)", created: date)
                let position = Int.random(in: 0...before.count, using: &random)
                try shared.perform([.insert(item, at: position)], named: "Add", by: person, at: date)
            case 0..<55 where !before.isEmpty:
                let picked = try #require(before.item(at: Int.random(in: 0..<before.count, using: &random))).id
                let id = before.count > 1 && Bool.random(using: &random) ? (before.ids.last ?? picked) : picked
                let choice = Int.random(in: 0..<5, using: &random)
                let change: TodoList.Change =
                    switch choice {
                    case 0: .update(id, [.title(to: "\(person) \(round)")], at: date)
                    case 1: .update(id, [before[id: id]?.isCompleted == true ? .reopen : .complete], at: date)
                    case 2: .update(id, [.details(to: "\(round)"), .title(to: "both \(round)")], at: date)
                    case 3: .remove(id)
                    default: .move(id, to: Int.random(in: 0..<before.count, using: &random))
                    }
                // Renames join the person's previous rename of the item within the window.
                let key: String? = choice == 0 ? "title \(id)" : nil
                _ = try? shared.perform([change], named: "Change", by: person, at: date, coalescingKey: key)
            case 55..<80:
                try checkUndo(by: person, on: &shared, at: date)
            case 80..<88:
                _ = try? shared.redo(by: person, at: date)
            case 88..<94 where !before.isEmpty:
                // Typing a title: renames a tenth of a second apart join one step.
                let id = try #require(before.item(at: Int.random(in: 0..<before.count, using: &random))).id
                for key in 1...Int.random(in: 2...4, using: &random) {
                    try shared.perform(
                        [.update(id, [.title(to: "\(person) typed \(round).\(key)")], at: date)], named: "Rename",
                        by: person, at: date.addingTimeInterval(Double(key) / 10), coalescingKey: "title \(id)")
                }
            default:
                try checkUndosThenRedos(by: person, count: Int.random(in: 1...3, using: &random), on: &shared, at: date)
            }
            reference.observe(before, shared.list, by: shared.log.last?.author ?? person)
            // A row's patch, recorded while its changes applied in place, is
            // the one the lists before and after it give.
            if shared.log.count == rowsBefore + 1, let row = shared.log.last {
                #expect(
                    row.patch == StepPatch.between(before, shared.list, changes: row.changes),
                    "the patch of row \(row.seq) (\(row.kind)) is not the lists' (seed \(seed))")
            }
            if round % 50 == 49 {
                #expect(try SharedList(replaying: shared.log).list == shared.list, "the log replays to the list (seed \(seed))")
            }
        }
        #expect(try SharedList(replaying: shared.log).list == shared.list, "the log replays to the list (seed \(seed))")
        #expect(shared.log.contains { $0.joins != nil }, "no rename joined a step: the run did not try coalescing (seed \(seed))")

        /// One undo takes back exactly the person's next step, and changes no
        /// field whose latest writer (by the reference) is someone else.
        func checkUndo(by person: String, on shared: inout SharedList, at date: Date) throws {
            guard let next = try shared.nextUndo(of: person) else {
                #expect(throws: SharingError.nothingToUndo(author: person)) { try shared.undo(by: person, at: date) }
                return
            }
            let before = shared.list
            let rows = shared.log.count
            let undo = try shared.undo(by: person, at: date)
            #expect(undo.kind == .undo(of: next.seq))
            #expect(shared.log.count == rows + 1)
            for (id, writers) in reference.latest {
                guard before.contains(id: id) || shared.list.contains(id: id) else { continue }
                for (field, writer) in writers where writer != person {
                    // A deleted item's fields keep their last values: bringing it back writes none.
                    let old = before[id: id].map(ReferenceWriters.fields)?[field] ?? reference.lastValues[id]?[field]
                    let new = shared.list[id: id].map(ReferenceWriters.fields)?[field]
                    #expect(old == new, "\(person)'s undo changed \(field) of an item \(writer) wrote last (seed \(seed))")
                }
            }
        }

        /// n undos followed by n redos, with nothing in between, leave the list as it was.
        func checkUndosThenRedos(by person: String, count: Int, on shared: inout SharedList, at date: Date) throws {
            let before = shared.list
            var undone = 0
            while undone < count, try shared.nextUndo(of: person) != nil {
                try shared.undo(by: person, at: date)
                undone += 1
            }
            for _ in 0..<undone { try shared.redo(by: person, at: date) }
            #expect(shared.list == before, "\(undone) undos and redos by \(person) changed the list (seed \(seed))")
        }
    }
}
