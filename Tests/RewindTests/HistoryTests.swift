import Foundation
import Testing
import Rewind
import TestSupport

@Suite("History of reversible changes")
struct HistoryTests {
    let clock = TestClock()

    func makeHistory(_ numbers: [Int] = [], limit: Int? = nil) -> History<NumberList> {
        History(NumberList(numbers), limit: limit, now: clock.now)
    }

    @Suite("perform, undo and redo")
    struct Basics {
        let clock = TestClock()

        @Test func performAppliesTheChangeAndRecordsANamedStep() throws {
            let history = History(NumberList(), now: clock.now)
            let step = try history.perform(.insert(4, at: 0), named: "Insert 4")
            #expect(step == HistoryStep(name: "Insert 4", date: clock.date, changes: [.remove(at: 0)]))
            #expect(history.model.numbers == [4])
            #expect(history.stepCount == 1)
            #expect(history.position == 1)
            #expect(history.steps.map(\.name) == ["Insert 4"])
            #expect(history.steps.first?.date == clock.date)
        }

        @Test func undoRestoresTheStateBeforeAndRedoTheStateAfter() throws {
            let history = History(NumberList([1, 2, 3]), now: clock.now)
            try history.perform(.remove(at: 1), named: "Remove 2")
            #expect(try history.undo() == "Remove 2")
            #expect(history.model.numbers == [1, 2, 3])
            #expect(try history.redo() == "Remove 2")
            #expect(history.model.numbers == [1, 3])
        }

        @Test func canUndoAndCanRedoFollowThePosition() throws {
            let history = History(NumberList(), now: clock.now)
            #expect(!history.canUndo && !history.canRedo)
            try history.perform(.insert(1, at: 0))
            #expect(history.canUndo && !history.canRedo)
            try history.undo()
            #expect(!history.canUndo && history.canRedo)
        }

        @Test func undoAndRedoWithNothingToDoReturnNilAndChangeNothing() throws {
            let history = History(NumberList([1]), now: clock.now)
            #expect(try history.undo() == nil)
            #expect(try history.redo() == nil)
            #expect(history.model.numbers == [1])
        }

        @Test func actionNamesAndTitlesNameTheStepsAtThePosition() throws {
            let history = History(NumberList(), now: clock.now)
            #expect(history.undoActionName == nil)
            #expect(history.undoTitle == "Undo")
            try history.perform(.insert(1, at: 0), named: "Add “Buy milk”")
            try history.perform(.remove(at: 0), named: "Delete “Buy milk”")
            #expect(history.undoActionName == "Delete “Buy milk”")
            #expect(history.undoTitle == "Undo Delete “Buy milk”")
            try history.undo()
            #expect(history.undoTitle == "Undo Add “Buy milk”")
            #expect(history.redoTitle == "Redo Delete “Buy milk”")
        }

        @Test func aNewStepClearsRedo() throws {
            let history = History(NumberList(), now: clock.now)
            try history.perform(.insert(1, at: 0), named: "a")
            try history.perform(.insert(2, at: 1), named: "b")
            try history.undo()
            try history.perform(.insert(3, at: 1), named: "c")
            #expect(!history.canRedo)
            #expect(history.steps.map(\.name) == ["a", "c"])
            #expect(history.model.numbers == [1, 3])
        }

        @Test func unlimitedByDefault() throws {
            let history = History(NumberList(), now: clock.now)
            for index in 0..<5_000 { try history.perform(.insert(index, at: index)) }
            #expect(history.stepCount == 5_000)
            try history.jump(to: 0)
            #expect(history.model.numbers.isEmpty)
        }

        @Test func aChangeOfSeveralPartsIsOneStep() throws {
            let history = History(NumberList(), now: clock.now)
            try history.perform([.insert(1, at: 0), .insert(2, at: 1), .replace(at: 0, with: 9)], named: "Batch")
            #expect(history.model.numbers == [9, 2])
            #expect(history.stepCount == 1)
            try history.undo()
            #expect(history.model.numbers.isEmpty)
            try history.redo()
            #expect(history.model.numbers == [9, 2])
        }

        @Test func anEmptyBatchRecordsNothing() throws {
            let history = History(NumberList(), now: clock.now)
            try history.perform([], named: "Nothing")
            #expect(history.stepCount == 0)
        }
    }

    @Suite("a change that fails")
    struct Failures {
        let clock = TestClock()

        @Test func throwsTheModelsErrorAndLeavesModelAndHistoryAsTheyWere() throws {
            let history = History(NumberList([1]), now: clock.now)
            try history.perform(.insert(2, at: 1), named: "ok")
            let before = (history.model, history.steps, history.position)
            #expect(throws: NumberList.OutOfRange(index: 5)) {
                try history.perform(.remove(at: 5), named: "bad")
            }
            #expect(history.model == before.0)
            #expect(history.steps == before.1)
            #expect(history.position == before.2)
        }

        @Test func aFailingPartOfABatchRevertsTheEarlierParts() throws {
            let history = History(NumberList([1]), now: clock.now)
            #expect(throws: NumberList.OutOfRange.self) {
                try history.perform([.insert(2, at: 1), .replace(at: 0, with: 7), .remove(at: 9)], named: "bad")
            }
            #expect(history.model.numbers == [1])
            #expect(history.stepCount == 0)
        }

        @Test func aFailingChangeDoesNotClearRedo() throws {
            let history = History(NumberList(), now: clock.now)
            try history.perform(.insert(1, at: 0), named: "a")
            try history.undo()
            #expect(throws: NumberList.OutOfRange.self) { try history.perform(.remove(at: 3)) }
            #expect(history.canRedo)
        }

        @Test func applyAllIsAllOrNothingAndReturnsInversesNewestFirst() throws {
            var list = NumberList([1, 2])
            let inverses = try list.apply(all: [.remove(at: 0), .insert(5, at: 0)])
            #expect(list.numbers == [5, 2])
            #expect(inverses == [.remove(at: 0), .insert(1, at: 0)])
            for inverse in inverses { _ = try list.apply(inverse) }
            #expect(list.numbers == [1, 2])
            #expect(throws: NumberList.OutOfRange.self) { try list.apply(all: [.remove(at: 0), .remove(at: 7)]) }
            #expect(list.numbers == [1, 2])
        }
    }

    @Suite("groups")
    struct Groups {
        let clock = TestClock()

        @Test func changesBetweenBeginAndEndAreOneStep() throws {
            let history = History(NumberList(), now: clock.now)
            history.beginGroup(named: "Add two")
            let joined = try history.perform(.insert(1, at: 0), named: "ignored")
            #expect(joined == nil)
            try history.perform(.insert(2, at: 1))
            #expect(history.stepCount == 0)
            #expect(history.isGroupOpen)
            try history.endGroup()
            #expect(history.steps.map(\.name) == ["Add two"])
            try history.undo()
            #expect(history.model.numbers.isEmpty)
            try history.redo()
            #expect(history.model.numbers == [1, 2])
        }

        @Test func nestedGroupsJoinTheOutermostStep() throws {
            let history = History(NumberList(), now: clock.now)
            history.beginGroup(named: "Outer")
            try history.perform(.insert(1, at: 0))
            history.beginGroup(named: "Inner")
            try history.perform(.insert(2, at: 1))
            try history.endGroup()
            #expect(history.stepCount == 0)
            try history.perform(.insert(3, at: 2))
            try history.endGroup()
            #expect(history.steps.map(\.name) == ["Outer"])
            try history.undo()
            #expect(history.model.numbers.isEmpty)
        }

        @Test func anInnerNameServesAnUnnamedOuterGroup() throws {
            let history = History(NumberList(), now: clock.now)
            history.beginGroup()
            history.beginGroup(named: "Inner")
            try history.perform(.insert(2, at: 0))
            try history.endGroup()
            try history.endGroup()
            #expect(history.undoActionName == "Inner")
        }

        @Test func anEmptyGroupRecordsNothing() throws {
            let history = History(NumberList(), now: clock.now)
            history.beginGroup(named: "Nothing")
            try history.endGroup()
            #expect(history.stepCount == 0)
        }

        @Test func endingWithNoOpenGroupThrows() {
            let history = History(NumberList(), now: clock.now)
            #expect(throws: HistoryError.noOpenGroup) { try history.endGroup() }
        }

        @Test func undoRedoAndJumpAreRefusedWhileAGroupIsOpen() throws {
            let history = History(NumberList(), now: clock.now)
            try history.perform(.insert(1, at: 0))
            history.beginGroup(named: "Open")
            #expect(throws: HistoryError.groupOpen(name: "Open")) { try history.undo() }
            #expect(throws: HistoryError.groupOpen(name: "Open")) { try history.redo() }
            #expect(throws: HistoryError.groupOpen(name: "Open")) { try history.jump(to: 0) }
            #expect(history.model.numbers == [1])
        }

        @Test func aGroupClosureRecordsOneStepAndReturnsTheBodysResult() throws {
            let history = History(NumberList(), now: clock.now)
            let count = try history.group(named: "Complete 3 items") { history in
                for index in 0..<3 { try history.perform(.insert(index, at: index)) }
                return 3
            }
            #expect(count == 3)
            #expect(history.steps.map(\.name) == ["Complete 3 items"])
            #expect(!history.isGroupOpen)
        }

        @Test func aGroupsStepIsDatedWhenItWasOpenedAndItsLastChangeWhenItClosed() throws {
            let history = History(NumberList(), now: clock.now)
            let opened = clock.date
            // One line, its result not used: no warning (`group` is `@discardableResult`).
            try history.group(named: "Two") { history in
                try history.perform(.insert(1, at: 0))
                clock.advance(by: 30)
                return try history.perform(.insert(2, at: 1))
            }
            let step = try #require(history.steps.first)
            #expect(step.date == opened)
            #expect(step.lastChangeDate == clock.date)
        }

        @Test func aGroupClosureThatThrowsRevertsEverythingItDid() throws {
            let history = History(NumberList([7]), now: clock.now)
            #expect(throws: NumberList.OutOfRange.self) {
                try history.group(named: "Half done") { history in
                    try history.perform(.insert(1, at: 0))
                    history.beginGroup(named: "left open")
                    try history.perform(.replace(at: 1, with: 8))
                    try history.perform(.remove(at: 10))
                }
            }
            #expect(history.model.numbers == [7])
            #expect(history.stepCount == 0)
            #expect(!history.isGroupOpen)
        }
    }

    @Suite("coalescing")
    struct Coalescing {
        let clock = TestClock()

        @Test func changesWithTheSameKeyWithinTheWindowJoinOneStep() throws {
            let history = History(NumberList(), now: clock.now)
            try history.perform(.insert(1, at: 0), named: "Typing", coalescingKey: "typing")
            clock.advance(by: 0.3)
            try history.perform(.insert(2, at: 1), named: "Typing", coalescingKey: "typing")
            clock.advance(by: 0.4)  // 0.7 s after the first, 0.4 s after the last
            try history.perform(.insert(3, at: 2), named: "Typing", coalescingKey: "typing")
            #expect(history.stepCount == 1)
            #expect(history.steps.first?.lastChangeDate == clock.date)
            try history.undo()
            #expect(history.model.numbers.isEmpty)
        }

        @Test func aPauseLongerThanTheWindowStartsANewStep() throws {
            let history = History(NumberList(), now: clock.now)
            try history.perform(.insert(1, at: 0), coalescingKey: "typing")
            clock.advance(by: 0.501)
            try history.perform(.insert(2, at: 1), coalescingKey: "typing")
            #expect(history.stepCount == 2)
        }

        @Test func theWindowIsConfigurable() throws {
            let history = History(NumberList(), coalescingWindow: 2, now: clock.now)
            try history.perform(.insert(1, at: 0), coalescingKey: "k")
            clock.advance(by: 1.5)
            try history.perform(.insert(2, at: 1), coalescingKey: "k")
            #expect(history.stepCount == 1)
        }

        @Test func aDifferentKeyOrNoKeyStartsANewStep() throws {
            let history = History(NumberList(), now: clock.now)
            try history.perform(.insert(1, at: 0), coalescingKey: "title")
            try history.perform(.insert(2, at: 1), coalescingKey: "details")
            try history.perform(.insert(3, at: 2))
            try history.perform(.insert(4, at: 3))
            #expect(history.stepCount == 4)
        }

        @Test func nothingCoalescesIntoAStepAfterUndoOrRedo() throws {
            let history = History(NumberList(), now: clock.now)
            try history.perform(.insert(1, at: 0), coalescingKey: "k")
            try history.perform(.insert(2, at: 1), coalescingKey: "k")
            try history.undo()
            try history.redo()
            try history.perform(.insert(3, at: 2), coalescingKey: "k")
            #expect(history.stepCount == 2)
        }

        @Test func breakCoalescingEndsTheRun() throws {
            let history = History(NumberList(), now: clock.now)
            try history.perform(.insert(1, at: 0), coalescingKey: "k")
            history.breakCoalescing()
            try history.perform(.insert(2, at: 1), coalescingKey: "k")
            #expect(history.stepCount == 2)
        }
    }

    @Suite("depth limit")
    struct Limit {
        let clock = TestClock()

        @Test func theOldestStepsAreDroppedBeyondTheLimit() throws {
            let history = History(NumberList(), limit: 3, now: clock.now)
            for index in 0..<5 { try history.perform(.insert(index, at: index), named: "Insert \(index)") }
            #expect(history.steps.map(\.name) == ["Insert 2", "Insert 3", "Insert 4"])
            try history.jump(to: 0)
            #expect(history.model.numbers == [0, 1])
            #expect(!history.canUndo)
        }

        @Test func loweringTheLimitTrimsAtOnce() throws {
            let history = History(NumberList(), now: clock.now)
            for index in 0..<10 { try history.perform(.insert(index, at: index)) }
            history.limit = 4
            #expect(history.stepCount == 4)
            #expect(history.position == 4)
        }

        @Test func aLongRunUnderALimitKeepsExactlyTheNewestSteps() throws {
            let history = History(NumberList(), limit: 100, now: clock.now)
            for index in 0..<1_000 { try history.perform(.insert(index, at: index), named: "\(index)") }
            #expect(history.stepCount == 100)
            #expect(history.step(at: 0)?.name == "900")
            #expect(history.step(at: 99)?.name == "999")
            #expect(history.step(at: 100) == nil)
            try history.jump(to: 0)
            #expect(history.model.numbers == Array(0..<900))
        }
    }

    @Suite("jump")
    struct Jump {
        let clock = TestClock()

        func historyOfFive() throws -> History<NumberList> {
            let history = History(NumberList(), now: clock.now)
            for index in 0..<5 { try history.perform(.insert(index, at: index), named: "Insert \(index)") }
            return history
        }

        @Test func jumpMovesBackAndForthToAnyPosition() throws {
            let history = try historyOfFive()
            try history.jump(to: 2)
            #expect(history.model.numbers == [0, 1])
            #expect(history.position == 2)
            #expect(history.undoActionName == "Insert 1")
            #expect(history.redoActionName == "Insert 2")
            try history.jump(to: 4)
            #expect(history.model.numbers == [0, 1, 2, 3])
            try history.jump(to: 0)
            #expect(history.model.numbers.isEmpty)
            try history.jump(to: 5)
            #expect(history.model.numbers == [0, 1, 2, 3, 4])
        }

        @Test func jumpOutsideTheHistoryThrowsAndStays() throws {
            let history = try historyOfFive()
            #expect(throws: HistoryError.positionOutOfRange(6, valid: 0...5)) { try history.jump(to: 6) }
            #expect(throws: HistoryError.positionOutOfRange(-1, valid: 0...5)) { try history.jump(to: -1) }
            #expect(history.position == 5)
        }

        @Test func aJumpThatFailsMidwayComesBackWhereItStarted() throws {
            let history = History(CommandReceiver(Box()), now: clock.now)
            let box = history.model.receiver
            try history.perform(UndoableCommand(execute: { $0.value += 1 }, undo: { $0.value -= 1 }), named: "a")
            try history.perform(UndoableCommand(execute: { $0.value += 10 }, undo: { _ in throw Box.Stuck() }), named: "b")
            try history.perform(UndoableCommand(execute: { $0.value += 100 }, undo: { $0.value -= 100 }), named: "c")
            #expect(throws: Box.Stuck.self) { try history.jump(to: 0) }
            #expect(history.position == 3)
            #expect(box.value == 111)
        }

        final class Box {
            struct Stuck: Error {}
            var value = 0
        }
    }

    @Suite("observation")
    struct Observation {
        let clock = TestClock()

        final class Log {
            var events: [HistoryEvent<NumberList.Change>] = []
        }

        @Test func observersAreToldOfEveryEventAfterItHappened() throws {
            let history = History(NumberList(), limit: 2, now: clock.now)
            let log = Log()
            var positions: [Int] = []
            history.observe { event in
                log.events.append(event)
                positions.append(history.position)  // reading the history is allowed
            }
            try history.perform(.insert(1, at: 0), named: "a")
            try history.perform(.insert(2, at: 1), named: "b")
            try history.undo()
            try history.redo()
            try history.jump(to: 1)
            try history.perform(.insert(3, at: 1), named: "c")
            try history.perform(.insert(4, at: 2), named: "d")

            let date = clock.date
            #expect(log.events == [
                .performed(HistoryStep(name: "a", date: date, changes: [.remove(at: 0)]), at: 0, coalesced: false, discardedRedo: 0),
                .performed(HistoryStep(name: "b", date: date, changes: [.remove(at: 1)]), at: 1, coalesced: false, discardedRedo: 0),
                .undone(HistoryStep(name: "b", date: date, changes: [.insert(2, at: 1)]), at: 1),
                .redone(HistoryStep(name: "b", date: date, changes: [.remove(at: 1)]), at: 1),
                .undone(HistoryStep(name: "b", date: date, changes: [.insert(2, at: 1)]), at: 1),
                .jumped(from: 2, to: 1),
                .performed(HistoryStep(name: "c", date: date, changes: [.remove(at: 1)]), at: 1, coalesced: false, discardedRedo: 1),
                .performed(HistoryStep(name: "d", date: date, changes: [.remove(at: 2)]), at: 2, coalesced: false, discardedRedo: 0),
                .trimmed(count: 1),
            ])
            #expect(positions == [1, 2, 1, 2, 1, 1, 2, 3, 2])
        }

        @Test func coalescedChangesAreToldAsSuch() throws {
            let history = History(NumberList(), now: clock.now)
            let log = Log()
            history.observe { log.events.append($0) }
            try history.perform(.insert(1, at: 0), named: "t", coalescingKey: "k")
            try history.perform(.insert(2, at: 1), named: "t", coalescingKey: "k")
            #expect(log.events.last == .performed(
                HistoryStep(name: "t", date: clock.date, coalescingKey: "k", changes: [.remove(at: 0), .remove(at: 1)]),
                at: 0, coalesced: true, discardedRedo: 0))
        }

        @Test func aRemovedObserverHearsNothingMore() throws {
            let history = History(NumberList(), now: clock.now)
            let log = Log()
            let observation = history.observe { log.events.append($0) }
            try history.perform(.insert(1, at: 0))
            history.removeObserver(observation)
            try history.perform(.insert(2, at: 1))
            #expect(log.events.count == 1)
        }
    }

    @Suite("saving and restoring")
    struct Persistence {
        let clock = TestClock()

        @Test func stepsRoundTripThroughJSON() throws {
            let history = History(NumberList(), now: clock.now)
            try history.perform(.insert(1, at: 0), named: "a")
            try history.perform([.insert(2, at: 1), .replace(at: 0, with: 5)], named: "b", coalescingKey: "k")
            try history.undo()
            let data = try JSONEncoder().encode(history.steps)
            let decoded = try JSONDecoder().decode([HistoryStep<NumberList.Change>].self, from: data)
            #expect(decoded == history.steps)
        }

        @Test func aRestoredHistoryUndoesAndRedoesLikeTheOriginal() throws {
            let original = History(NumberList(), now: clock.now)
            try original.perform(.insert(1, at: 0), named: "a")
            try original.perform(.insert(2, at: 1), named: "b")
            try original.perform(.insert(3, at: 2), named: "c")
            try original.undo()

            let restored = try History(original.model, steps: original.steps, position: original.position, now: clock.now)
            #expect(restored.undoActionName == "b")
            #expect(restored.redoActionName == "c")
            try restored.redo()
            #expect(restored.model.numbers == [1, 2, 3])
            try restored.jump(to: 0)
            #expect(restored.model.numbers.isEmpty)
        }

        @Test func restoringAtAPositionOutsideTheStepsThrows() {
            #expect(throws: HistoryError.invalidRestoredPosition(3, stepCount: 2)) {
                try History(NumberList(), steps: [
                    HistoryStep(name: "a", date: .now, changes: [.remove(at: 0)]),
                    HistoryStep(name: "b", date: .now, changes: [.remove(at: 0)]),
                ], position: 3)
            }
        }

        @Test func errorsSayWhatIsAllowed() {
            #expect(HistoryError.positionOutOfRange(9, valid: 0...4).description
                == "There is no position 9 in the history: positions run from 0 to 4.")
            #expect(HistoryError.groupOpen(name: "Typing").description.contains("Typing"))
        }
    }
}
