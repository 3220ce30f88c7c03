import Testing
import Rewind

@Suite("ValueHistory")
struct ValueHistoryTests {
    @Test func startsWithItsInitialValueAndNothingToUndoOrRedo() {
        let history = ValueHistory(7)
        #expect(history.current == 7)
        #expect(!history.hasPrevious)
        #expect(!history.hasNext)
        #expect(history.count == 1)
    }

    @Test func previousAndNextMoveThroughAddedValues() {
        var history = ValueHistory(0)
        history.add(1)
        history.add(2)
        history.previous()
        #expect(history.current == 1)
        history.previous()
        #expect(history.current == 0)
        history.previous()  // nothing before: stays
        #expect(history.current == 0)
        history.next()
        history.next()
        history.next()  // nothing after: stays
        #expect(history.current == 2)
    }

    @Test func addIgnoresAValueEqualToTheCurrentOne() {
        var history = ValueHistory("a")
        let first = history.add("b")
        let second = history.add("b")
        #expect(first)
        #expect(!second)
        #expect(history.count == 2)
        history.previous()
        #expect(history.current == "a")
    }

    @Test func addAfterSteppingBackDiscardsTheValuesAhead() {
        var history = ValueHistory(0)
        history.add(1)
        history.add(2)
        history.previous()
        history.previous()
        history.add(9)
        #expect(!history.hasNext)
        #expect(history.count == 2)
        history.previous()
        #expect(history.current == 0)
        history.next()
        #expect(history.current == 9)
    }

    @Test func limitDropsTheOldestValues() {
        var history = ValueHistory(0, limit: 2)
        for value in 1...5 { history.add(value) }
        #expect(history.count == 3)
        history.previous()
        history.previous()
        #expect(history.current == 3)
        #expect(!history.hasPrevious)
    }

    @Test func theDroppedCountNeverGoesDownWhenAValueIsAddedAfterUndoAtTheLimit() {
        var history = ValueHistory(0, limit: 3)
        for value in 1...5 { history.add(value) }
        #expect(history.droppedCount == 2)
        while history.canUndo { history.undo() }
        #expect(history.current == 2)
        history.add(9)
        #expect(history.droppedCount == 2)
        #expect(history.current == 9)
        history.undo()
        #expect(history.current == 2)
        #expect(!history.canUndo)
    }

    @Test func addUndoAndAddAgainAtTheLimitKeepTheLimitsValuesAndCountEveryDroppedOne() {
        let limit = 4
        var history = ValueHistory(0, limit: limit)
        var model = ValueHistory(0)
        var dropped = 0
        for round in 1...50 {
            for value in [round * 10, round * 10 + 1] {
                history.add(value, named: "\(value)")
                model.add(value, named: "\(value)")
            }
            history.undo()
            model.undo()
            history.add(round * 10 + 5, named: "\(round * 10 + 5)")
            model.add(round * 10 + 5, named: "\(round * 10 + 5)")
            #expect(history.droppedCount >= dropped)
            dropped = history.droppedCount
            // Within reach: the newest `limit` steps of the unlimited history, whatever is waiting to be removed.
            #expect(history.stepNames == Array(model.stepNames.suffix(limit)))
            #expect(history.count == min(limit, model.count - 1) + 1)
            #expect(history.droppedCount == model.count - history.count)
        }
        var back: [Int] = []
        while history.canUndo { history.undo(); back.append(history.current) }
        #expect(back == [500, 495, 490, 485])
    }

    @Test func twoHistoriesAreEqualWhenWhatCanBeSeenOfThemIs() {
        var grown = ValueHistory(0, limit: 2)
        for value in 1...4 { grown.add(value, named: "\(value)") }
        var restored = ValueHistory(2, limit: 2, droppedCount: 2)
        restored.add(3, named: "3")
        restored.add(4, named: "4")
        #expect(grown == restored)
        restored.undo()
        #expect(grown != restored)
    }

    @Test func stepNamesAndJumpServeAHistoryPanel() {
        var history = ValueHistory(0)
        history.add(1, named: "Type 1")
        history.add(12, named: "Type 2")
        history.add(15, named: "Add 3")
        #expect(history.stepNames == ["Type 1", "Type 2", "Add 3"])
        history.jump(to: 1)
        #expect(history.current == 1)
        #expect(history.redoActionName == "Type 2")
        history.jump(to: 99)
        #expect(history.current == 15)
        history.jump(to: -3)
        #expect(history.current == 0)
    }

    @Test func undoControllerNamesTheStepsAndMovesLikePreviousAndNext() {
        var history = ValueHistory(0)
        history.add(5, named: "Type 5")
        #expect(history.canUndo)
        #expect(history.undoTitle == "Undo Type 5")
        #expect(history.redoTitle == "Redo")
        let undone = history.undo()
        #expect(undone == "Type 5")
        #expect(history.current == 0)
        #expect(history.redoActionName == "Type 5")
        let nothingUndone = history.undo()
        #expect(nothingUndone == nil)
        let redone = history.redo()
        #expect(redone == "Type 5")
        #expect(history.current == 5)
        let nothingRedone = history.redo()
        #expect(nothingRedone == nil)
    }
}

@Suite("UndoController binds a view to either history alike")
struct UndoControllerTests {
    /// What a view does with its Undo button, whichever history it has.
    static func pressUndo(_ controller: inout some UndoController) throws -> String {
        let title = controller.undoTitle
        try controller.undo()
        return title
    }

    @Test func aValueHistoryAndAHistoryOfChangesServeTheSameView() throws {
        var values = ValueHistory([Int]())
        values.add([1], named: "Insert 1")
        var changes = History(NumberList())
        try changes.perform(.insert(1, at: 0), named: "Insert 1")

        #expect(try Self.pressUndo(&values) == "Undo Insert 1")
        #expect(try Self.pressUndo(&changes) == "Undo Insert 1")
        #expect(values.current == changes.model.numbers)
        #expect(!values.canUndo && !changes.canUndo)
        #expect(values.canRedo && changes.canRedo)
    }
}
