import Foundation
import Rewind
import TestSupport
import Testing
@testable import Todos

@Suite("Randomized undo and redo")
struct RandomizedUndoTests {
    /// A random change, valid or not, against `state`.
    static func randomChange(_ state: AppState, _ rng: inout SeededGenerator, nextID: inout UInt8, at date: Date) throws -> AppState.Change {
        let ids = state.todos.ids
        let someID = ids.randomElement(using: &rng) ?? Fixtures.id(255)
        let position = Int.random(in: 0...(state.todos.count + 1), using: &rng)
        switch Int.random(in: 0..<12, using: &rng) {
        case 0, 1:
            nextID &+= 1
            return .add(try Fixtures.item("item \(nextID)", nextID, at: date))
        case 2:
            nextID &+= 1
            return .insert(try Fixtures.item("item \(nextID)", nextID, at: date), at: position)
        case 3: return .remove(someID)
        case 4: return .todos(.removeItems(Array(ids.shuffled(using: &rng).prefix(3))))
        case 5:
            let changes: [TodoItem.Change] = [
                .title(to: "t\(Int.random(in: 0..<1000, using: &rng))"), .details(to: "d"),
                .due(to: .timeSpan(.duration(.from(date), for: Int.random(in: 0...3, using: &rng), .hours))),
                .location(to: .coordinate(.init(latitude: Double.random(in: -100...100, using: &rng), longitude: 0))),
                .complete, .reopen, .title(to: " "),
            ]
            return .update(someID, Array(changes.shuffled(using: &rng).prefix(Int.random(in: 1...3, using: &rng))), at: date)
        case 6: return .move(someID, to: position)
        case 7: return .todos(.completeAll(at: date))
        case 8: return .todos(.reopenAll(at: date))
        case 9: return .todos(.removeCompleted)
        case 10:
            guard let item = state.todos[id: someID] else { return .remove(someID) }
            return .todos(.replace([try item.alter(.title(to: "replaced"), .complete, at: date)]))
        default:
            let kept = state.todos.items.shuffled(using: &rng).prefix(Int.random(in: 0...5, using: &rng))
            return .setting(.todos(try TodoList(items: Array(kept))))
        }
    }

    /// The counts of `list` at `now`, item by item.
    static func countedOneByOne(_ list: TodoList, now: Date) -> TodoCounts {
        let items = list.items
        return TodoCounts(
            total: items.count, active: items.count(where: { !$0.isCompleted }),
            completed: items.count(where: \.isCompleted), overdue: items.count(where: { $0.isOverdue(at: now) }))
    }

    @Test("undoing any random sequence returns the initial state, redoing returns the final one",
          arguments: [1, 2, 3, 42] as [UInt64])
    func randomSequences(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var nextID: UInt8 = 10
        let initial = try Fixtures.state(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"])
        let history = History(initial)
        var states = [initial]
        var refused = 0
        var date = Fixtures.start
        for _ in 0..<1500 {
            date = date.addingTimeInterval(1.5)
            let before = history.model
            let change = try Self.randomChange(before, &rng, nextID: &nextID, at: date)
            do {
                try history.perform(change, named: before.stepName(for: change))
                states.append(history.model)
                // The counts the list keeps as it changes are those of its items.
                let now = date.addingTimeInterval(Double.random(in: -3600...7200, using: &rng))
                #expect(history.model.todos.counts(now: now) == Self.countedOneByOne(history.model.todos, now: now))
            } catch {
                refused += 1
                #expect(history.model == before, "a refused \(change) changed the state")
            }
        }
        #expect(refused > 50, "the test should also try invalid changes")
        #expect(history.stepCount > 500)
        let final = history.model
        // Undo step by step: every intermediate state comes back exactly.
        for expected in states.reversed().dropFirst() {
            try history.undo()
            #expect(history.model == expected)
            #expect(history.model.todos.counts(now: date) == Self.countedOneByOne(history.model.todos, now: date))
            if history.model != expected { return }
        }
        #expect(history.model == initial)
        while history.canRedo { try history.redo() }
        #expect(history.model == final)
        try history.jump(to: history.stepCount / 2)
        #expect(history.model == states[history.stepCount / 2])
    }
}
