import Foundation
import Rewind
import TestSupport
import Testing
import Todos
@testable import TodoStore

/// The log keeps the steps a change after an undo abandons, and a jump
/// returns to any of them, as vim's undo tree does.
@Suite("SQLite store: the history tree")
struct HistoryTreeTests {
    @Test func aChangeAfterAnUndoLeavesABranchThatAJumpReturnsTo() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, now: fixture.clock.now)
        try await store.change(.add(try fixture.item("A")))
        try await store.change(.add(try fixture.item("B")))
        try await store.undo()
        try await store.change(.add(try fixture.item("C")))
        #expect((try await store.history()).steps.map(\.name) == ["Add “A”", "Add “C”"])

        let tree = try await store.historyTree()
        #expect(tree.steps.map(\.name) == ["Add “A”", "Add “B”", "Add “C”"])
        #expect(tree.steps.map(\.branch) == [.done, .abandoned, .done])
        let (a, b, c) = (tree.steps[0], tree.steps[1], tree.steps[2])
        #expect(b.parent == a.number && c.parent == a.number)
        #expect(tree.current == c.number)

        try await store.jump(toStep: b.number)
        #expect((try await store.state()).todos.items.map(\.title) == ["A", "B"])
        #expect((try await store.history()).steps.map(\.name) == ["Add “A”", "Add “B”"])
        #expect((try await store.history()).position == 2)
        #expect(try await store.historyTree().steps.map(\.branch) == [.done, .done, .abandoned])

        // The jump is one move for undo: back to A, then redo goes to B.
        try await store.undo()
        #expect((try await store.state()).todos.items.map(\.title) == ["A"])
        try await store.redo()
        #expect((try await store.state()).todos.items.map(\.title) == ["A", "B"])

        try await store.jump(toStep: 0)
        #expect((try await store.state()).todos.isEmpty)
        #expect(try await store.historyTree().steps.map(\.branch) == [.undone, .undone, .abandoned])

        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect(try await reopened.historyTree() == (try await store.historyTree()))
        try await reopened.jump(toStep: c.number)
        #expect((try await reopened.state()).todos.items.map(\.title) == ["A", "C"])
    }

    @Test func aJumpToAStepThatIsNotThereChangesNothing() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, now: fixture.clock.now)
        try await store.change(.add(try fixture.item("A")))
        try await store.change(.add(try fixture.item("B")))
        let before = ((try await store.state()), (try await store.history()), try await store.historyTree())
        for number: Int64 in [3, 99, -1, Int64.max] {
            await #expect(throws: HistoryError.stepNotFound(number)) { try await store.jump(toStep: number) }
        }
        #expect((try await store.state()) == before.0)
        #expect((try await store.history()) == before.1)
        #expect(try await store.historyTree() == before.2)
    }

    /// A long random session of changes, undos, redos and jumps to any step:
    /// at every step the list equals the list it had when that step was made.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyJumpReturnsToTheStateTheStepMade(seed: UInt64) async throws {
        let fixture = try StoreFixture(.sqlite)
        var store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, now: fixture.clock.now)
        var generator = SeededGenerator(seed: seed)
        var made: [Int64: AppState] = [0: AppState()]
        for round in 0..<200 {
            let state = (try await store.state())
            switch Int.random(in: 0..<10, using: &generator) {
            case 0, 1, 2:
                let item = try fixture.item("Item \(round)")
                try await store.change(.insert(item, at: Int.random(in: 0...state.todos.count, using: &generator)))
            case 3:
                if let item = state.todos.items.randomElement(using: &generator) {
                    try await store.change(.update(item.id, [.title(to: "Renamed \(round)"), .complete], at: fixture.clock.now()))
                } else {
                    continue
                }
            case 4:
                guard let item = state.todos.items.randomElement(using: &generator) else { continue }
                try await store.change(.remove(item.id))
            case 5, 6:
                try await store.undo()
            case 7:
                try await store.redo()
            default:
                let steps = try await store.historyTree().steps
                let target = steps.randomElement(using: &generator)?.number ?? 0
                try await store.jump(toStep: target)
                #expect(try await store.historyTree().current == target)
            }
            let current = try await store.historyTree().current
            if let expected = made[current] {
                #expect((try await store.state()) == expected, "round \(round), at step \(current)")
            } else {
                made[current] = (try await store.state())
            }
            if round % 25 == 0 {
                store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, now: fixture.clock.now)
                #expect((try await store.state()) == made[current])
            }
        }
        #expect(made.count > 50)
    }

    /// The tree is kept between operations (every page draws it) and read
    /// again after any of them: a change, an undo, another process's change.
    @Test func theTreeKeptForThePagesFollowsEveryOperation() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, now: fixture.clock.now)
        try await store.change(.add(try fixture.item("A")))
        #expect(try await store.historyTree().steps.map(\.name) == ["Add “A”"])
        try await store.change(.add(try fixture.item("B")))
        #expect(try await store.historyTree().steps.map(\.name) == ["Add “A”", "Add “B”"])
        try await store.undo()
        #expect(try await store.historyTree().steps.map(\.branch) == [.done, .undone])
        let other = try SQLiteStore(url: fixture.fileURL, pollInterval: nil, now: fixture.clock.now)
        try await other.change(.add(try fixture.item("C")))
        // This store sees it at its next operation, as it sees the items.
        try await store.change(.add(try fixture.item("D")))
        #expect(try await store.historyTree().steps.map(\.name) == ["Add “A”", "Add “B”", "Add “C”", "Add “D”"])
        #expect(try await store.historyTree().steps.map(\.branch) == [.done, .abandoned, .done, .done])
    }
}
