import Foundation
import Rewind
import Testing
@testable import Todos

/// Undo and redo of every change restore exact states and positions.
@Suite("AppState changes under undo and redo")
struct UndoRedoSpecs {
    static let at = Fixtures.start.addingTimeInterval(300)

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let stepName: String
        let changes: @Sendable (AppState) throws -> [AppState.Change]
        let check: @Sendable (_ before: AppState, _ after: AppState) throws -> Bool
        var testDescription: String { name }
    }

    /// A list a, b (completed), c, d (completed), e.
    static func start() throws -> AppState {
        var state = try Fixtures.state(["a", "b", "c", "d", "e"])
        _ = try state.apply(.update(Fixtures.id(2), [.complete], at: Fixtures.start))
        _ = try state.apply(.update(Fixtures.id(4), [.complete], at: Fixtures.start))
        return state
    }

    static func titles(_ state: AppState) -> [String] { state.todos.items.map(\.title) }

    static let cases: [Case] = [
        Case(name: "add", stepName: "Add “f”", changes: { _ in [.add(try Fixtures.item("f", 6))] }) {
            titles($1) == ["a", "b", "c", "d", "e", "f"]
        },
        Case(name: "insert at a position", stepName: "Add “f”", changes: { _ in [.insert(try Fixtures.item("f", 6), at: 1)] }) {
            titles($1) == ["a", "f", "b", "c", "d", "e"]
        },
        Case(name: "remove from the middle", stepName: "Delete “c”", changes: { _ in [.remove(Fixtures.id(3))] }) {
            titles($1) == ["a", "b", "d", "e"]
        },
        Case(name: "remove several", stepName: "Delete 2 items", changes: { _ in
            [.todos(.removeItems([Fixtures.id(4), Fixtures.id(1)]))]
        }) { titles($1) == ["b", "c", "e"] },
        Case(name: "rename", stepName: "Rename “c” to “C”", changes: { _ in [.update(Fixtures.id(3), [.title(to: "C")], at: at)] }) {
            $1.todos[id: Fixtures.id(3)]?.title == "C" && $1.todos[id: Fixtures.id(3)]?.changed == at
        },
        Case(name: "complete", stepName: "Complete “a”", changes: { _ in [.update(Fixtures.id(1), [.complete], at: at)] }) {
            $1.todos[id: Fixtures.id(1)]?.isCompleted == true
        },
        Case(name: "replace (a whole item saved)", stepName: "Edit “e”", changes: { state in
            guard let e = state.todos[id: Fixtures.id(5)] else { return [] }
            return [.todos(.replace([try e.alter(.details(to: "new"), at: at)]))]
        }) { $1.todos[id: Fixtures.id(5)]?.details == "new" },
        Case(name: "move", stepName: "Move “a”", changes: { _ in [.move(Fixtures.id(1), to: 3)] }) {
            titles($1) == ["b", "c", "d", "a", "e"]
        },
        Case(name: "complete all", stepName: "Complete 3 items", changes: { _ in [.todos(.completeAll(at: at))] }) {
            $1.todos.items.allSatisfy { $0.isCompleted } && $1.todos[id: Fixtures.id(2)]?.changed == Fixtures.start
        },
        Case(name: "reopen all", stepName: "Reopen 2 items", changes: { _ in [.todos(.reopenAll(at: at))] }) {
            !$1.todos.items.contains { $0.isCompleted }
        },
        Case(name: "remove all completed", stepName: "Clear 2 completed items", changes: { _ in [.todos(.removeCompleted)] }) {
            titles($1) == ["a", "c", "e"]
        },
        Case(name: "set the list", stepName: "Replace the list with 1 item", changes: { _ in
            [.setting(.todos(try TodoList(items: [try Fixtures.item("x", 9)])))]
        }) { titles($1) == ["x"] },
        Case(name: "several changes as one step", stepName: "Complete 2 items", changes: { _ in
            [.update(Fixtures.id(1), [.complete], at: at), .update(Fixtures.id(3), [.complete], at: at)]
        }) { $1.todos.counts(now: at).active == 1 },
    ]

    @Test("the change does what it says", arguments: cases)
    func applies(_ c: Case) throws {
        let history = History(try Self.start())
        let before = history.model
        try history.perform(try c.changes(before), named: before.stepName(for: try c.changes(before)))
        #expect(try c.check(before, history.model))
        #expect(history.model != before)
    }

    @Test("its step has a human name", arguments: cases)
    func named(_ c: Case) throws {
        let state = try Self.start()
        #expect(state.stepName(for: try c.changes(state)) == c.stepName)
    }

    @Test("undo restores the exact state, positions and dates included", arguments: cases)
    func undo(_ c: Case) throws {
        let history = History(try Self.start())
        let before = history.model
        try history.perform(try c.changes(before))
        try history.undo()
        #expect(history.model == before)
        #expect(history.model.todos.items == before.todos.items)
    }

    @Test("redo restores the exact state after the change", arguments: cases)
    func redo(_ c: Case) throws {
        let history = History(try Self.start())
        try history.perform(try c.changes(history.model))
        let after = history.model
        try history.undo()
        try history.redo()
        #expect(history.model == after)
        try history.undo()
        try history.redo()
        #expect(history.model.todos.items == after.todos.items)
    }

    @Test("the inverse is small: it holds only the items it needs")
    func smallInverse() throws {
        var state = try Fixtures.state((0..<100).map { "item \($0)" })
        let inverse = try state.apply(.remove(Fixtures.id(50)))
        guard case .todos(.insert(let item, let position)) = inverse else {
            Issue.record("unexpected inverse \(inverse)")
            return
        }
        #expect(item.title == "item 49")
        #expect(position == 49)
        let rename = try state.apply(.update(Fixtures.id(7), [.title(to: "seven")], at: Self.at))
        #expect(rename == .update(Fixtures.id(7), [.title(to: "item 6")], at: Fixtures.start))
    }

    @Suite("refused changes leave the state unchanged")
    struct Refused {
        @Test("a missing item is reported and nothing changes")
        func missing() throws {
            var state = try UndoRedoSpecs.start()
            let before = state
            let ghost = Fixtures.id(99)
            #expect(throws: TodoError.itemNotFound(ghost)) { try state.apply(.update(ghost, [.complete], at: UndoRedoSpecs.at)) }
            #expect(throws: TodoError.itemNotFound(ghost)) { try state.apply(.remove(ghost)) }
            #expect(throws: TodoError.itemNotFound(ghost)) { try state.apply(.todos(.removeItems([Fixtures.id(1), ghost]))) }
            #expect(throws: TodoError.itemNotFound(ghost)) { try state.apply(.move(ghost, to: 0)) }
            #expect(state == before)
        }

        @Test("duplicates, bad positions and no-ops are refused")
        func invalid() throws {
            var state = try UndoRedoSpecs.start()
            let before = state
            #expect(throws: TodoError.duplicateItem(Fixtures.id(1))) { try state.apply(.add(try Fixtures.item("again", 1))) }
            #expect(throws: TodoError.positionOutOfRange(6, valid: 0...5)) { try state.apply(.insert(try Fixtures.item("f", 6), at: 6)) }
            #expect(throws: TodoError.positionOutOfRange(5, valid: 0...4)) { try state.apply(.move(Fixtures.id(1), to: 5)) }
            #expect(throws: TodoError.emptyTitle) { try state.apply(.update(Fixtures.id(1), [.complete, .title(to: "")], at: UndoRedoSpecs.at)) }
            _ = try state.apply(.todos(.removeCompleted))
            let cleared = state
            #expect(throws: TodoError.nothingToChange("no item is completed")) { try state.apply(.todos(.removeCompleted)) }
            #expect(state == cleared)
            // On an empty list, completing or reopening every item names the list's emptiness.
            var empty = AppState()
            #expect(throws: TodoError.nothingToChange("the list has no items")) { try empty.apply(.todos(.completeAll(at: UndoRedoSpecs.at))) }
            #expect(throws: TodoError.nothingToChange("the list has no items")) { try empty.apply(.todos(.reopenAll(at: UndoRedoSpecs.at))) }
            _ = try state.apply(.setting(.todos(before.todos)))
            #expect(state == before)
        }
    }
}
