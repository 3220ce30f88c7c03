import Foundation
import Rewind
import TestSupport
import Testing
@testable import Todos

/// Positions in a list long enough to span many chunks of its order.
@Suite("A long list under random changes")
struct LongListTests {
    static func id(_ n: Int) -> UUID { OrderedIDsTests.id(n) }

    @Test("inserts, removals, moves and bulk removals keep positions; undo returns every state",
          arguments: [5, 11] as [UInt64])
    func randomChangesAndUndo(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let items = try (0..<3_000).map { try TodoItem(id: Self.id($0), title: "item \($0)", created: Fixtures.start) }
        let history = History(AppState(todos: try TodoList(items: items)))
        var model = items.map(\.id)
        var orders = [model]
        var next = 3_000
        for _ in 0..<300 {
            let change: AppState.Change
            let roll = Int.random(in: 0..<10, using: &rng)
            if roll < 3 {
                next += 1
                let position = Int.random(in: 0...model.count, using: &rng)
                change = .insert(try TodoItem(id: Self.id(next), title: "new \(next)", created: Fixtures.start), at: position)
                model.insert(Self.id(next), at: position)
            } else if roll < 6 {
                let position = Int.random(in: 0..<model.count, using: &rng)
                change = .remove(model.remove(at: position))
            } else if roll < 9 {
                let id = model.remove(at: Int.random(in: 0..<model.count, using: &rng))
                let target = Int.random(in: 0...model.count, using: &rng)
                model.insert(id, at: target)
                change = .move(id, to: target)
            } else {
                let doomed = Array(model.shuffled(using: &rng).prefix(40))
                model.removeAll { Set(doomed).contains($0) }
                change = .todos(.removeItems(doomed))
            }
            try history.perform(change, named: "change")
            orders.append(model)
            let todos = history.model.todos
            #expect(Array(todos.ids) == model)
            let probe = Int.random(in: 0..<model.count, using: &rng)
            #expect(todos.position(of: model[probe]) == probe)
            #expect(todos.item(at: probe)?.id == model[probe])
        }
        for expected in orders.reversed().dropFirst() {
            try history.undo()
            guard Array(history.model.todos.ids) == expected else {
                Issue.record("undo to step \(history.position) gave another order")
                return
            }
        }
        #expect(history.model.todos.items == items)
        while history.canRedo { try history.redo() }
        #expect(Array(history.model.todos.ids) == model)
    }

    @Test func removingAndRestoringMostItemsKeepsTheOrder() throws {
        let items = try (0..<5_000).map { try TodoItem(id: Self.id($0), title: "item \($0)", created: Fixtures.start) }
        var list = try TodoList(items: items)
        let doomed = items.indices.filter { $0 % 7 != 3 }.map { items[$0].id }
        let inverse = try list.apply(.removeItems(doomed))
        #expect(Array(list.ids) == items.indices.filter { $0 % 7 == 3 }.map { items[$0].id })
        guard case .restore(let placements) = inverse else {
            Issue.record("removing items returned \(inverse)")
            return
        }
        #expect(placements.map(\.position) == items.indices.filter { $0 % 7 != 3 })
        _ = try list.apply(inverse)
        #expect(list.items == items)
        #expect(list == (try TodoList(items: items)))
    }
}
