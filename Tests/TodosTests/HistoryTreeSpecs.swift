import Foundation
import Testing
@testable import Todos

/// The history tree: what a store without branches answers, and how deep
/// each branch is drawn.
@Suite("HistoryTree")
struct HistoryTreeSpecs {
    private static let date = Date(timeIntervalSince1970: 1_800_000_000)

    private func step(_ number: Int64, after parent: Int64, _ branch: HistoryTree.Branch = .done) -> HistoryTree.Step {
        HistoryTree.Step(number: number, parent: parent, name: "Step \(number)", date: Self.date, branch: branch)
    }

    @Suite("linear")
    struct Linear {
        private func overview(_ names: [String], position: Int) -> HistoryOverview {
            HistoryOverview(steps: names.map { HistoryOverview.Step(name: $0, date: HistoryTreeSpecs.date) }, position: position)
        }

        @Test("numbers the steps by position, each made after the one before")
        func numbersByPosition() {
            let tree = HistoryTree(linear: overview(["A", "B", "C"], position: 1))
            #expect(tree.steps.map(\.number) == [1, 2, 3])
            #expect(tree.steps.map(\.parent) == [0, 1, 2])
            #expect(tree.steps.map(\.name) == ["A", "B", "C"])
            #expect(tree.steps.map(\.branch) == [.done, .undone, .undone])
            #expect(tree.current == 1)
            #expect(tree.levels() == [0, 0, 0])
        }

        @Test("an empty history is the start alone")
        func empty() {
            #expect(HistoryTree(linear: overview([], position: 0)) == HistoryTree(steps: [], current: 0))
        }

        @Test("is what InMemoryStore answers, before and after a change drops the undone steps")
        func inMemoryStore() async throws {
            let store = InMemoryStore(now: { HistoryTreeSpecs.date })
            try await store.change(.add(try Fixtures.item("A", 1)))
            try await store.change(.add(try Fixtures.item("B", 2)))
            try await store.undo()
            #expect(await store.historyTree() == HistoryTree(linear: await store.history()))
            #expect(await store.historyTree().steps.map(\.branch) == [.done, .undone])
            try await store.change(.add(try Fixtures.item("C", 3)))
            let tree = await store.historyTree()
            #expect(tree.steps.map(\.name) == ["Add “A”", "Add “C”"])
            #expect(!tree.steps.contains { $0.branch == .abandoned })
            #expect(tree.current == 2)
        }
    }

    @Suite("levels")
    struct Levels {
        @Test("a branch is one level deeper than its parent; its line stays at that level")
        func branches() {
            let spec = HistoryTreeSpecs()
            // 1 → 2 → 3, then 4 after 1, 5 after 4, 6 after 4, 7 after 0.
            let tree = HistoryTree(
                steps: [
                    spec.step(1, after: 0, .abandoned), spec.step(2, after: 1, .abandoned), spec.step(3, after: 2, .abandoned),
                    spec.step(4, after: 1, .abandoned), spec.step(5, after: 4, .abandoned), spec.step(6, after: 4),
                    spec.step(7, after: 0, .undone),
                ],
                current: 6
            )
            #expect(tree.levels() == [0, 0, 0, 1, 1, 2, 1])
        }

        @Test("a step whose parent was pruned is at level 0")
        func pruned() {
            let spec = HistoryTreeSpecs()
            let tree = HistoryTree(steps: [spec.step(8, after: 7), spec.step(9, after: 8), spec.step(10, after: 7)], current: 9)
            #expect(tree.levels() == [0, 0, 1])
        }
    }

    @Test("encodes as the API and `history --all --json` write it")
    func codable() throws {
        let tree = HistoryTree(steps: [step(1, after: 0), step(2, after: 1, .abandoned)], current: 1)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .secondsSince1970
        let json = String(decoding: try encoder.encode(tree), as: UTF8.self)
        #expect(json == #"{"current":1,"steps":[{"branch":"done","date":1800000000,"name":"Step 1","number":1,"parent":0},"#
            + #"{"branch":"abandoned","date":1800000000,"name":"Step 2","number":2,"parent":1}]}"#)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        #expect(try decoder.decode(HistoryTree.self, from: Data(json.utf8)) == tree)
    }

    @Suite("moves")
    struct Moves {
        private static let date = HistoryTreeSpecs.date

        @Test("a change after an undo abandons the undone steps; undo and redo move along a branch")
        func performUndoRedo() {
            var tree = HistoryTree(steps: [], current: 0)
            tree.perform(number: 1, name: "A", date: Self.date, undoneLeft: false)
            tree.perform(number: 2, name: "B", date: Self.date, undoneLeft: false)
            #expect(tree.undo() == true)
            #expect(tree.current == 1)
            #expect(tree.steps.map(\.branch) == [.done, .undone])
            // Number 3 is the log's undo row: the next change is 4.
            tree.perform(number: 4, name: "C", date: Self.date, undoneLeft: true)
            #expect(tree.steps.map(\.number) == [1, 2, 4])
            #expect(tree.steps.map(\.parent) == [0, 1, 1])
            #expect(tree.steps.map(\.branch) == [.done, .abandoned, .done])
            #expect(tree.current == 4)
            #expect(tree.undo() == true)
            #expect(tree.undo() == true)
            #expect(tree.current == 0)
            #expect(tree.undo() == false)
            #expect(tree.steps.map(\.branch) == [.undone, .abandoned, .undone])
            // A redo brings back a step made after the current one only.
            #expect(tree.redo(4) == false)
            #expect(tree.redo(1) == true)
            #expect(tree.redo(4) == true)
            #expect(tree.redo(9) == false)
            #expect(tree.steps.map(\.branch) == [.done, .abandoned, .done])
            #expect(tree.current == 4)
        }
    }
}
