import Foundation
import Testing
@testable import Todos

/// A toggle is decided on the item as it is when the step is applied, and
/// recorded as the complete or reopen it made.
@Suite("Toggle")
struct ToggleSpecs {
    let later = Fixtures.start.addingTimeInterval(60)

    @Test("an item decides a toggle by its state and by the changes before it")
    func itemDecides() throws {
        let active = try Fixtures.item("Buy milk", 1)
        let completed = try active.alter(.complete, at: later)
        #expect(active.deciding([.toggle]) == [.complete])
        #expect(completed.deciding([.toggle]) == [.reopen])
        #expect(active.deciding([.complete, .toggle]) == [.complete, .reopen])
        #expect(active.deciding([.toggle, .title(to: "Oat milk"), .toggle]) == [.complete, .title(to: "Oat milk"), .reopen])
        #expect(completed.deciding([.title(to: "Oat milk")]) == [.title(to: "Oat milk")])
    }

    @Test("an edit keeps only the changes that alter the item, as it is saved")
    func effectiveChanges() throws {
        let milk = try Fixtures.item("Buy milk", 1)
        #expect(milk.effective([.title(to: "  Buy milk "), .details(to: milk.details), .due(to: milk.due)]).isEmpty)
        #expect(milk.effective([.title(to: "Buy oat milk"), .reopen, .complete]) == [.title(to: "Buy oat milk"), .complete])
        #expect(milk.effective([.title(to: "Oat"), .title(to: "Buy milk")]) == [.title(to: "Oat"), .title(to: "Buy milk")])
        #expect(milk.effective([.toggle, .toggle]) == [.toggle, .toggle])
        #expect(milk.effective([.title(to: "   ")]) == [.title(to: "   ")], "an invalid value is kept, to be refused")
    }

    @Test("a toggle applied flips the state, and its inverse restores it exactly")
    func appliedAndReverted() throws {
        var item = try Fixtures.fullItem()
        let original = item
        let inverse = try item.apply([.toggle], at: later)
        #expect(item.isCompleted)
        #expect(inverse.changes == [.reopen])
        _ = try item.apply(inverse.changes, at: inverse.date)
        #expect(item == original)
    }

    @Test("a step's toggles are decided on the items the changes before them left")
    func stepDecides() throws {
        let milk = try Fixtures.item("Buy milk", 1)
        let done = try Fixtures.item("Read", 2).alter(.complete, at: later)
        var asked: [UUID] = []
        let lookup: (UUID) -> Bool? = { id in
            asked.append(id)
            return [milk.id: false, done.id: true][id]
        }
        func decided(_ changes: [AppState.Change]) -> [AppState.Change] {
            AppState.Change.deciding(changes, isCompleted: lookup)
        }
        let toggleMilk = AppState.Change.update(milk.id, [.toggle], at: later)
        let toggleDone = AppState.Change.update(done.id, [.toggle], at: later)
        #expect(decided([toggleMilk, toggleDone]) == [
            .update(milk.id, [.complete], at: later), .update(done.id, [.reopen], at: later),
        ])
        // The same item twice in one step: the second sees the first.
        #expect(decided([toggleMilk, toggleMilk]) == [
            .update(milk.id, [.complete], at: later), .update(milk.id, [.reopen], at: later),
        ])
        // After toggle-all and its reverse, every item is known without asking.
        asked.removeAll()
        #expect(decided([.todos(.completeAll(at: later)), toggleMilk, toggleDone]) == [
            .todos(.completeAll(at: later)), .update(milk.id, [.reopen], at: later), .update(done.id, [.reopen], at: later),
        ])
        #expect(decided([.todos(.reopenAll(at: later)), toggleDone]).last == .update(done.id, [.complete], at: later))
        #expect(asked.isEmpty)
        // An item the step brings in is decided by its own state.
        let fresh = try Fixtures.item("New", 3)
        #expect(decided([.add(fresh), .update(fresh.id, [.toggle], at: later)]).last == .update(fresh.id, [.complete], at: later))
        let list = try TodoList(items: [done])
        #expect(decided([.setting(.todos(list)), .update(done.id, [.toggle], at: later)]).last == .update(done.id, [.reopen], at: later))
        #expect(asked.isEmpty)
        // Without a toggle the step is left alone and nothing is asked.
        let plain: [AppState.Change] = [.add(fresh), .update(milk.id, [.complete], at: later)]
        #expect(decided(plain) == plain)
        #expect(asked.isEmpty)
    }

    @Test("a toggle of a shared list's item is decided on the list")
    func listDecides() throws {
        let done = try Fixtures.item("Read", 2).alter(.complete, at: later)
        let list = try TodoList(items: [done])
        #expect(TodoList.Change.deciding([.update(done.id, [.toggle], at: later)], on: list) == [.update(done.id, [.reopen], at: later)])
    }

    @Test("the JSON format reads and writes a toggle")
    func json() throws {
        let data = try JSONEncoder().encode(TodoItem.Change.toggle)
        #expect(String(decoding: data, as: UTF8.self) == #"{"op":"toggle"}"#)
        #expect(try JSONDecoder().decode(TodoItem.Change.self, from: data) == .toggle)
    }
}
