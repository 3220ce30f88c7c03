import Foundation
import Testing
import Rewind
import Todos
import TodoStore

/// One suite, run against every store: what any store must do.
@Suite("Every store")
struct StoreSuiteTests {
    @Test(arguments: StoreKind.allCases)
    func aChangeIsThereAtOnceAndUndoRedoRestoreExactStates(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = try fixture.open()
        let milk = try fixture.item("Buy milk")
        let eggs = try fixture.item("Buy eggs")
        try store.change(.add(milk))
        try store.change(.add(eggs))
        let afterAdding = store.state()
        try store.change(.remove(milk.id))
        #expect(store.state().todos.items == [eggs])
        #expect(store.history().undoTitle == "Undo Delete “Buy milk”")
        #expect(try store.undo() == "Delete “Buy milk”")
        #expect(store.state() == afterAdding)
        #expect(try store.redo() == "Delete “Buy milk”")
        #expect(store.state().todos.items == [eggs])
    }

    @Test(arguments: StoreKind.allCases)
    func reopeningRestoresItemsAndTheUndoAndRedoStacks(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let first = try fixture.open()
        let milk = try fixture.item("Buy milk")
        let bread = try fixture.item("Buy bread")
        try first.change(.add(milk))
        try first.change(.add(bread))
        try first.change(.update(milk.id, [.title(to: "Buy oat milk"), .finish], at: fixture.clock.now()))
        try first.change(.remove(bread.id))
        try first.undo()
        let saved = first.state()
        let savedHistory = first.history()

        let second = try fixture.open()
        guard kind.persists else {
            #expect(second === first)
            return
        }
        #expect(second.state() == saved)
        #expect(second.history() == savedHistory)
        #expect(second.history().redoActionName == "Delete “Buy bread”")
        try second.undo()
        #expect(second.state().todos[id: milk.id] == milk)
        try second.redo()
        try second.redo()
        #expect(second.state().todos.items.map(\.title) == ["Buy oat milk"])

        let third = try fixture.open()
        #expect(third.state() == second.state())
        try third.jump(to: 0)
        #expect(third.state().todos.isEmpty)
        let fourth = try fixture.open()
        #expect(fourth.state().todos.isEmpty)
        #expect(fourth.history().position == 0)
        #expect(fourth.history().steps.count == 4)
    }

    @Test(arguments: StoreKind.allCases)
    func undoOfADeleteBringsTheItemBackAtItsPositionAfterReopening(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = try fixture.open()
        let items = try (0..<5).map { try fixture.item("Item \($0)") }
        for item in items { try store.change(.add(item)) }
        try store.change(.remove(items[2].id))
        try store.change(.insert(try fixture.item("First"), at: 0))
        let reopened = try fixture.open()
        try reopened.undo()
        try reopened.undo()
        #expect(reopened.state().todos.items == items)
        #expect(try fixture.open().state().todos.items == items)
    }

    @Test(arguments: StoreKind.allCases)
    func aRefusedChangeLeavesStateHistoryAndFileAsTheyWere(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = try fixture.open()
        let milk = try fixture.item("Buy milk")
        try store.change(.add(milk))
        let before = (store.state(), store.history())
        #expect(throws: TodoError.self) {
            try store.change(.update(milk.id, [.title(to: "   ")], at: fixture.clock.now()))
        }
        #expect(throws: TodoError.self) { try store.change(.add(milk)) }
        #expect(store.state() == before.0)
        #expect(store.history() == before.1)
        #expect(try fixture.open().history() == before.1)
    }

    @Test(arguments: StoreKind.allCases)
    func subscribersAreToldOfEveryOperation(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = try fixture.open()
        let count = Counter()
        let subscription = store.updated { count.increment() }
        try store.change(.add(try fixture.item("a")))
        try store.undo()
        try store.redo()
        try store.jump(to: 0)
        #expect(count.value == 4)
        subscription.cancel()
        try store.redo()
        #expect(count.value == 4)
    }

    @Test(arguments: StoreKind.allCases)
    func resetEmptiesStateAndHistoryForGood(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = try fixture.open()
        try store.change(.add(try fixture.item("a")))
        try store.change(.add(try fixture.item("b")))
        try store.reset()
        #expect(store.state().todos.isEmpty)
        #expect(store.history().steps.isEmpty)
        let reopened = try fixture.open()
        #expect(reopened.state().todos.isEmpty)
        #expect(reopened.history().steps.isEmpty)
        try reopened.change(.add(try fixture.item("c")))
        #expect(try fixture.open().state().todos.items.map(\.title) == ["c"])
    }

    @Test(arguments: StoreKind.allCases)
    func aCapOnKeptStepsPrunesTheOldest(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = try fixture.open(limit: 3)
        for index in 0..<6 { try store.change(.add(try fixture.item("Item \(index)"))) }
        #expect(store.history().steps.map(\.name) == ["Add “Item 3”", "Add “Item 4”", "Add “Item 5”"])
        let reopened = try fixture.open(limit: 3)
        #expect(reopened.history().steps.map(\.name) == ["Add “Item 3”", "Add “Item 4”", "Add “Item 5”"])
        try reopened.jump(to: 0)
        #expect(reopened.state().todos.items.map(\.title) == ["Item 0", "Item 1", "Item 2"])
        #expect(try fixture.open(limit: 3).state().todos.count == 3)
    }

    @Test(arguments: StoreKind.allCases)
    func aLongRandomSessionReopensToTheSameStateAndHistory(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        var store = try fixture.open()
        var generator = SplitMix(seed: 7)
        for step in 0..<150 {
            let state = store.state()
            switch Int.random(in: 0..<8, using: &generator) {
            case 0, 1, 2:
                let item = try fixture.item("Item \(step)")
                try store.change(.insert(item, at: Int.random(in: 0...state.todos.count, using: &generator)))
            case 3:
                if let item = state.todos.items.randomElement(using: &generator) { try store.change(.remove(item.id)) }
            case 4:
                if let item = state.todos.items.randomElement(using: &generator) {
                    try store.change(.update(item.id, [.title(to: "Renamed \(step)"), .finish], at: fixture.clock.now()))
                }
            case 5:
                if let item = state.todos.items.randomElement(using: &generator) {
                    try store.change(.move(item.id, to: Int.random(in: 0..<state.todos.count, using: &generator)))
                }
            case 6:
                try store.undo()
            default:
                try store.redo()
            }
            if step % 10 == 0 {
                let (savedState, savedHistory) = (store.state(), store.history())
                store = try fixture.open()
                if kind.persists {
                    #expect(store.state() == savedState, "after step \(step)")
                    #expect(store.history() == savedHistory)
                }
            }
        }
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}

struct SplitMix: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
