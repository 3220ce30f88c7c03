import Foundation
import Testing
import Todos

@Suite("The history a store keeps in memory")
struct KeptHistorySpecs {
    private static let date = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("what was never asked for stays unread through every move")
    func nothingAskedFor() {
        var kept = KeptHistory()
        kept.performed(number: 1, name: "A", date: Self.date, undoneLeft: false)
        kept.undone()
        kept.redone(1)
        kept.pruned(keepingNewest: 1)
        #expect(kept == KeptHistory())
    }

    @Test("a change, an undo and a redo move the steps shown and the tree together")
    func movesTogether() {
        var kept = KeptHistory.empty
        kept.performed(number: 1, name: "A", date: Self.date, undoneLeft: false)
        kept.performed(number: 2, name: "B", date: Self.date, undoneLeft: false)
        kept.undone()
        #expect(kept.shown?.position == 1)
        #expect(kept.tree?.current == 1)
        // A change after the undo: B leaves the steps shown, and stays in the tree, abandoned.
        kept.performed(number: 4, name: "C", date: Self.date, undoneLeft: true)
        #expect(kept.shown?.steps.map(\.name) == ["A", "C"])
        #expect(kept.tree?.steps.map(\.branch) == [.done, .abandoned, .done])
        kept.undone()
        kept.redone(4)
        #expect(kept.shown?.position == 2)
        #expect(kept.tree?.current == 4)
    }

    @Test("a move the tree cannot follow drops the tree and keeps the steps shown")
    func treeDropped() {
        var kept = KeptHistory.empty
        kept.performed(number: 1, name: "A", date: Self.date, undoneLeft: false)
        kept.redone(7)
        #expect(kept.tree == nil)
        #expect(kept.shown?.position == 1)

        var pruned = KeptHistory.empty
        for number in 1...3 { pruned.performed(number: Int64(number), name: "S\(number)", date: Self.date, undoneLeft: false) }
        pruned.pruned(keepingNewest: 2)
        #expect(pruned.tree == nil)
        #expect(pruned.shown?.steps.map(\.name) == ["S2", "S3"])
        #expect(pruned.shown?.position == 2)
    }

    @Test("forgetting drops both")
    func forget() {
        var kept = KeptHistory.empty
        kept.forget()
        #expect(kept.shown == nil)
        #expect(kept.tree == nil)
    }
}
