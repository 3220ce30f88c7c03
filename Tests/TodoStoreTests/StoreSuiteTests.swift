import Foundation
import Testing
import Rewind
import TestSupport
import Todos
import TodoStore

/// One suite, run against every store: what any store must do.
@Suite("Every store", .dropsPostgresSchemas)
struct StoreSuiteTests {
    @Test(.enabled(if: PostgresTestDatabase.url != nil, PostgresTestDatabase.missing))
    func runsAgainstPostgreSQLWhenThereIsAServer() {
        #expect(StoreKind.tested == StoreKind.allCases)
    }

    @Test(arguments: StoreKind.tested)
    func aChangeIsThereAtOnceAndUndoRedoRestoreExactStates(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let store = try await fixture.open()
        let milk = try fixture.item("Buy milk")
        let eggs = try fixture.item("Buy eggs")
        try await store.change(.add(milk))
        try await store.change(.add(eggs))
        let afterAdding = try await store.state()
        try await store.change(.remove(milk.id))
        #expect(try await store.state().todos.items == [eggs])
        #expect(try await store.history().undoTitle == "Undo Delete “Buy milk”")
        #expect(try await store.undo() == "Delete “Buy milk”")
        #expect(try await store.state() == afterAdding)
        #expect(try await store.redo() == "Delete “Buy milk”")
        #expect(try await store.state().todos.items == [eggs])
    }

    /// What a health check asks: a store that reads and saves says so,
    /// before and after changes, and while a change is under way.
    @Test(arguments: StoreKind.tested)
    func aStoreThatReadsAndSavesSaysItIsReachable(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let store = try await fixture.open()
        try await store.checkReachable()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<8 { group.addTask { try await store.change(.add(try fixture.item("Item \(number)"))) } }
            group.addTask { try await store.checkReachable() }
            try await group.waitForAll()
        }
        try await store.checkReachable()
        #expect(try await store.state().todos.items.count == 8)
    }

    @Test(arguments: StoreKind.tested)
    func togglesSentAtOnceAreEachDecidedOnTheItemAsTheOneBeforeLeftIt(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let store = try await fixture.open()
        let milk = try fixture.item("Buy milk")
        try await store.change(.add(milk))
        let toggle = AppState.Change.update(milk.id, [.toggle], at: fixture.clock.now())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<5 { group.addTask { try await store.change([toggle], named: nil) } }
            try await group.waitForAll()
        }
        // Five toggles: completed, and the steps say what each did.
        #expect(try await store.state().todos[id: milk.id]?.isCompleted == true)
        let names = try await store.history().steps.map(\.name)
        #expect(names == ["Add “Buy milk”"] + Array(repeating: ["Complete “Buy milk”", "Reopen “Buy milk”"], count: 3).joined().prefix(5))
        // A sixth answers the item as it left it, from the step's own turn.
        let answered = try await store.change([toggle], named: nil, answering: [milk.id, UUID()])
        #expect(answered.items.map(\.id) == [milk.id])
        #expect(answered.items.first?.isCompleted == false)
        #expect(try await store.state().todos[id: milk.id] == answered.items.first)
        #expect(try await store.undo() == "Reopen “Buy milk”")
        #expect(try await store.state().todos[id: milk.id]?.isCompleted == true)
        // The log says what was done: complete or reopen, never toggle.
        if let forwards = try await fixture.savedForwardChanges() {
            #expect(!forwards.contains { $0.contains("toggle") }, "\(forwards)")
            // The add, then the six toggles' rows (the undo's row follows).
            let ops = forwards.prefix(7).map { $0.replacingOccurrences(of: " ", with: "") }
            #expect(ops.filter { $0.contains(#""op":"complete""#) }.count == 3, "\(forwards)")
            #expect(ops.filter { $0.contains(#""op":"reopen""#) }.count == 3, "\(forwards)")
        }
        guard kind.persists else { return }
        let reopened = try await fixture.open()
        #expect(try await reopened.redo() == "Reopen “Buy milk”")
        #expect(try await reopened.state().todos[id: milk.id]?.isCompleted == false)
    }

    @Test(arguments: StoreKind.tested)
    func reopeningRestoresItemsAndTheUndoAndRedoStacks(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let first = try await fixture.open()
        let milk = try fixture.item("Buy milk")
        let bread = try fixture.item("Buy bread")
        try await first.change(.add(milk))
        try await first.change(.add(bread))
        try await first.change(.update(milk.id, [.title(to: "Buy oat milk"), .complete], at: fixture.clock.now()))
        try await first.change(.remove(bread.id))
        try await first.undo()
        let saved = try await first.state()
        let savedHistory = try await first.history()

        let second = try await fixture.open()
        guard kind.persists else {
            #expect(second === first)
            return
        }
        #expect(try await second.state() == saved)
        #expect(try await second.history() == savedHistory)
        #expect(try await second.history().redoActionName == "Delete “Buy bread”")
        try await second.undo()
        #expect(try await second.state().todos[id: milk.id] == milk)
        try await second.redo()
        try await second.redo()
        #expect(try await second.state().todos.items.map(\.title) == ["Buy oat milk"])

        let third = try await fixture.open()
        #expect(try await third.state() == second.state())
        try await third.jump(to: 0)
        #expect(try await third.state().todos.isEmpty)
        let fourth = try await fixture.open()
        #expect(try await fourth.state().todos.isEmpty)
        #expect(try await fourth.history().position == 0)
        #expect(try await fourth.history().steps.count == 4)
    }

    @Test(arguments: StoreKind.tested)
    func undoOfADeleteBringsTheItemBackAtItsPositionAfterReopening(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let store = try await fixture.open()
        let items = try (0..<5).map { try fixture.item("Item \($0)") }
        for item in items { try await store.change(.add(item)) }
        try await store.change(.remove(items[2].id))
        try await store.change(.insert(try fixture.item("First"), at: 0))
        let reopened = try await fixture.open()
        try await reopened.undo()
        try await reopened.undo()
        #expect(try await reopened.state().todos.items == items)
        #expect(try await fixture.open().state().todos.items == items)
    }

    @Test(arguments: StoreKind.tested)
    func aRefusedChangeLeavesStateHistoryAndFileAsTheyWere(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let store = try await fixture.open()
        let milk = try fixture.item("Buy milk")
        try await store.change(.add(milk))
        let before = (try await store.state(), try await store.history())
        await #expect(throws: TodoError.self) {
            try await store.change(.update(milk.id, [.title(to: "   ")], at: fixture.clock.now()))
        }
        await #expect(throws: TodoError.self) { try await store.change(.add(milk)) }
        #expect(try await store.state() == before.0)
        #expect(try await store.history() == before.1)
        #expect(try await fixture.open().history() == before.1)
    }

    @Test(arguments: StoreKind.tested)
    func subscribersAreToldOfEveryOperation(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let store = try await fixture.open()
        let updates = await store.updates()
        let counting = Task {
            var count = 0
            for await _ in updates {
                count += 1
                if count == 4 { break }
            }
            return count
        }
        try await store.change(.add(try fixture.item("a")))
        try await store.undo()
        try await store.redo()
        try await store.jump(to: 0)
        #expect(await counting.value == 4)
        // The reader stopped: the store goes on without it.
        try await store.redo()
    }

    @Test(arguments: StoreKind.tested)
    func resetEmptiesStateAndHistoryForGood(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let store = try await fixture.open()
        try await store.change(.add(try fixture.item("a")))
        try await store.change(.add(try fixture.item("b")))
        try await store.reset()
        #expect(try await store.state().todos.isEmpty)
        #expect(try await store.history().steps.isEmpty)
        let reopened = try await fixture.open()
        #expect(try await reopened.state().todos.isEmpty)
        #expect(try await reopened.history().steps.isEmpty)
        try await reopened.change(.add(try fixture.item("c")))
        #expect(try await fixture.open().state().todos.items.map(\.title) == ["c"])
    }

    @Test(arguments: StoreKind.tested)
    func aCapOnKeptStepsPrunesTheOldest(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let store = try await fixture.open(limit: 3)
        for index in 0..<6 { try await store.change(.add(try fixture.item("Item \(index)"))) }
        #expect(try await store.history().steps.map(\.name) == ["Add “Item 3”", "Add “Item 4”", "Add “Item 5”"])
        let reopened = try await fixture.open(limit: 3)
        #expect(try await reopened.history().steps.map(\.name) == ["Add “Item 3”", "Add “Item 4”", "Add “Item 5”"])
        try await reopened.jump(to: 0)
        #expect(try await reopened.state().todos.items.map(\.title) == ["Item 0", "Item 1", "Item 2"])
        #expect(try await fixture.open(limit: 3).state().todos.count == 3)
    }

    @Test(arguments: StoreKind.tested)
    func aLongRandomSessionReopensToTheSameStateAndHistory(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        var store = try await fixture.open()
        var generator = SeededGenerator(seed: 7)
        for step in 0..<150 {
            let state = try await store.state()
            switch Int.random(in: 0..<8, using: &generator) {
            case 0, 1, 2:
                let item = try fixture.item("Item \(step)")
                try await store.change(.insert(item, at: Int.random(in: 0...state.todos.count, using: &generator)))
            case 3:
                if let item = state.todos.items.randomElement(using: &generator) { try await store.change(.remove(item.id)) }
            case 4:
                if let item = state.todos.items.randomElement(using: &generator) {
                    try await store.change(.update(item.id, [.title(to: "Renamed \(step)"), .complete], at: fixture.clock.now()))
                }
            case 5:
                if let item = state.todos.items.randomElement(using: &generator) {
                    try await store.change(.move(item.id, to: Int.random(in: 0..<state.todos.count, using: &generator)))
                }
            case 6:
                try await store.undo()
            default:
                try await store.redo()
            }
            if step % 10 == 0 {
                let (savedState, savedHistory) = (try await store.state(), try await store.history())
                store = try await fixture.open()
                if kind.persists {
                    #expect(try await store.state() == savedState, "after step \(step)")
                    #expect(try await store.history() == savedHistory)
                }
            }
        }
    }
}

/// The history tree and the jump to a step of it, as every store has them:
/// the steps of the history are the tree's done and undone steps; only the
/// SQLite and PostgreSQL stores keep the abandoned ones.
@Suite("Every store: the history and the tree shown", .dropsPostgresSchemas)
struct StoreShownHistorySuiteTests {
    /// After every kind of operation, the history and the tree a store
    /// answers (which a store may keep in memory and move with its own
    /// operations) are those a store opened afresh reads from what was saved.
    @Test(arguments: StoreKind.tested)
    func theHistoryAfterEachOperationIsTheOneReadAfresh(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let store = try await fixture.open()
        let items = try (0..<6).map { try fixture.item("Item \($0)") }
        func check(_ operation: String) async throws {
            let kept = (try await store.history(), try await store.historyTree())
            if kind.persists {
                let fresh = try await fixture.open()
                #expect(kept.0 == (try await fresh.history()), "after \(operation)")
                #expect(kept.1 == (try await fresh.historyTree()), "the tree after \(operation)")
            }
        }
        try await check("opening")
        try await store.change(.add(items[0]))
        try await check("a change")
        // Adds asked for together go in one batch where the store batches them.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for item in items[1...3] { group.addTask { try await store.change(.add(item)) } }
            try await group.waitForAll()
        }
        try await check("adds together")
        try await store.change(.update(items[1].id, [.title(to: "Renamed"), .complete], at: fixture.clock.now()))
        try await check("an update")
        try await store.undo()
        try await store.undo()
        try await check("two undos")
        try await store.redo()
        try await check("a redo")
        try await store.change(.remove(items[0].id))
        try await check("a change after an undo, which drops the redo step")
        await #expect(throws: TodoError.self) { try await store.change(.remove(items[0].id)) }
        try await check("a refused change")
        try await store.jump(to: 1)
        try await check("a jump back")
        try await store.jump(to: 4)
        try await check("a jump forward")
        let tree = try await store.historyTree()
        try await store.jump(toStep: tree.steps[1].number)
        try await check("a jump to a step of the tree")
        try await store.change(.add(items[4]))
        try await check("a change after the jump")
        try await store.reset()
        try await check("a reset")
        try await store.change(.add(items[5]))
        try await check("a change after the reset")
        #expect(try await store.history().steps.map(\.name) == ["Add “Item 5”"])
    }

    /// What another instance over the same PostgreSQL database does is
    /// in the history and the tree that an instance answers with next,
    /// and its own moves after that start from there.
    @Test(.enabled(if: PostgresTestDatabase.url != nil, PostgresTestDatabase.missing))
    func anotherInstancesOperationsAreInTheHistoryShownNext() async throws {
        let fixture = try StoreFixture(.postgres)
        let first = try await fixture.open()
        let second = try await fixture.open()
        for title in ["A", "B", "C"] { try await first.change(.add(try fixture.item(title))) }
        func expectFresh(_ operation: String) async throws {
            let fresh = try await fixture.open()
            #expect(try await first.history() == fresh.history(), "after \(operation)")
            #expect(try await first.historyTree() == fresh.historyTree(), "the tree after \(operation)")
        }
        try await expectFresh("the first instance's adds")
        try await second.undo()
        try await expectFresh("the other instance's undo")
        try await second.change(.add(try fixture.item("D")))
        try await expectFresh("the other instance's change after its undo")
        try await first.undo()
        try await first.change(.add(try fixture.item("E")))
        try await expectFresh("this instance's undo and change after the other's")
        #expect(try await first.history().steps.map(\.name) == ["Add “A”", "Add “B”", "Add “E”"])
    }
}

@Suite("Every store: the history tree", .dropsPostgresSchemas)
struct StoreTreeSuiteTests {
    @Test(arguments: StoreKind.tested)
    func theTreeHoldsTheHistorysStepsAndAJumpToAStepMovesThere(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let store = try await fixture.open()
        let items = try ["A", "B", "C"].map { try fixture.item($0) }
        for item in items { try await store.change(.add(item)) }
        try await store.undo()
        let tree = try await store.historyTree()
        #expect(tree.steps.map(\.name) == (try await store.history()).steps.map(\.name))
        #expect(tree.steps.map(\.branch) == [.done, .done, .undone])
        #expect(tree.steps.map(\.parent) == [0] + tree.steps.dropLast().map(\.number))
        #expect(tree.current == tree.steps[1].number)

        try await store.jump(toStep: tree.steps[0].number)
        #expect(try await store.state().todos.items == [items[0]])
        #expect(try await store.history().position == 1)
        try await store.jump(toStep: tree.steps[2].number)
        #expect(try await store.state().todos.items == items)
        try await store.jump(toStep: 0)
        #expect(try await store.state().todos.isEmpty)
        #expect(try await store.historyTree().current == 0)

        let before = (try await store.history(), try await store.historyTree())
        for number: Int64 in [99, -1, .max] {
            await #expect(throws: HistoryError.stepNotFound(number)) { try await store.jump(toStep: number) }
        }
        #expect(try await store.history() == before.0)
        #expect(try await store.historyTree() == before.1)
        if kind.persists {
            let reopened = try await fixture.open()
            #expect(try await reopened.historyTree() == before.1)
            #expect(try await reopened.state().todos.isEmpty)
        }
    }

    @Test(arguments: StoreKind.tested)
    func aChangeAfterAnUndoLeavesAnAbandonedStepOnlyWhereTheStoreKeepsBranches(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let store = try await fixture.open()
        try await store.change(.add(try fixture.item("A")))
        try await store.change(.add(try fixture.item("B")))
        try await store.undo()
        try await store.change(.add(try fixture.item("C")))
        let tree = try await store.historyTree()
        if kind.keepsBranches {
            #expect(tree.steps.map(\.name) == ["Add “A”", "Add “B”", "Add “C”"])
            #expect(tree.steps.map(\.branch) == [.done, .abandoned, .done])
            try await store.jump(toStep: tree.steps[1].number)
            #expect(try await store.state().todos.items.map(\.title) == ["A", "B"])
        } else {
            // The linear history as a tree: numbered by position.
            #expect(tree == HistoryTree(linear: try await store.history()))
            #expect(tree.steps.map(\.name) == ["Add “A”", "Add “C”"])
            #expect(tree.steps.map(\.number) == [1, 2])
        }
    }

    @Test(arguments: StoreKind.tested.filter(\.keepsBranches))
    func aJumpOntoAnAbandonedBranchRedoesWhatThatBranchHasAfterTheStep(_ kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let store = try await fixture.open()
        for title in ["A", "B", "C", "D"] { try await store.change(.add(try fixture.item(title))) }
        try await store.undo()
        try await store.undo()
        try await store.change(.add(try fixture.item("E")))
        // The tree: A, B, then C, D (abandoned), and E made after B.
        var tree = try await store.historyTree()
        #expect(tree.steps.map(\.branch) == [.done, .done, .abandoned, .abandoned, .done])
        try await store.jump(toStep: tree.steps[2].number)
        #expect(try await store.state().todos.items.map(\.title) == ["A", "B", "C"])
        // What was undone after C waits to be redone, as it did before E.
        tree = try await store.historyTree()
        #expect(tree.steps.map(\.branch) == [.done, .done, .done, .undone, .abandoned])
        #expect(try await store.history().canRedo)
        #expect(try await store.redo() == "Add “D”")
        #expect(try await store.state().todos.items.map(\.title) == ["A", "B", "C", "D"])
        #expect(try await store.redo() == nil)
        // Back onto E's branch, whose end is its own step: nothing to redo.
        try await store.jump(toStep: tree.steps[4].number)
        #expect(try await store.state().todos.items.map(\.title) == ["A", "B", "E"])
        #expect(try await store.redo() == nil)
        if kind.persists {
            try await store.jump(toStep: tree.steps[2].number)
            let reopened = try await fixture.open()
            #expect(try await reopened.redo() == "Add “D”")
        }
    }
}
