import Foundation
import Testing
import Rewind
@testable import Calculator

/// A chain of 100,000 operations costs the same per press as a short one:
/// snapshots share the chain, its tape line is bounded, the tape keeps its
/// newest lines, and an undo limit holds without shifting the history on
/// every press. (Each snapshot once copied the whole chain: 8,000 presses
/// took 13.6 s and 298 MB.)
@Suite("Long chains")
struct LongChainTests {
    @Test func aChainOf100000OperationsIsPrintedWithItsStartAndEnd() throws {
        var session = try CalculatorSession(configuration: .shipped())
        for _ in 0..<50_000 { try session.press(["1", "+"]) }
        try session.press(["1", "="])
        #expect(session.display == "50001")
        let line = try #require(session.tape.last)
        #expect(line.hasPrefix("1 + 1 + 1 + "))
        #expect(line.hasSuffix("… + 1 = 50001"))
        #expect(line.split(separator: " ").count <= Calculator.maximumPrintedTerms + 6)
        #expect(session.stepCount == 100_002)
        session.undo()
        #expect(session.tape.isEmpty)
        #expect(session.display == "1")
    }

    @Test func aShortChainIsPrintedWhole() throws {
        var session = try CalculatorSession(configuration: .shipped())
        try session.press(["2", "+", "3", "x", "4", "="])
        #expect(session.tape == ["2 + 3 × 4 = 20"])
    }

    @Test func anOperatorReplacedAfterTheLimitIsPrintedAsReplaced() throws {
        var session = try CalculatorSession(configuration: .shipped())
        for _ in 0..<40 { try session.press(["1", "+"]) }
        try session.press(["-", "1", "="])
        #expect(session.display == "39")
        #expect(session.tape.last?.hasSuffix("… − 1 = 39") == true)
    }

    @Test func theTapeKeepsItsNewestLines() throws {
        var session = try CalculatorSession(configuration: .shipped())
        for index in 0..<1_000 { try session.press(["\(index % 10)", "+", "1", "="]) }
        let tape = session.tape
        #expect((Calculator.maximumTapeLines...(2 * Calculator.maximumTapeLines)).contains(tape.count))
        #expect(tape.last == "9 + 1 = 10")
    }

    @Test func anUndoLimitKeepsThatManyStepsAndSaysHowManyWent() throws {
        var session = try CalculatorSession(configuration: .shipped(), undoLimit: 1_000)
        for _ in 0..<5_000 { try session.press(["1", "+"]) }
        #expect(session.stepCount == 1_000)
        #expect(session.droppedStepCount == 9_000)
        var undone = 0
        while session.undo() != nil { undone += 1 }
        #expect(undone == 1_000)
        #expect(session.redo() != nil)
    }

    @Test func droppingTheOldestStepsKeepsTheCurrentState() throws {
        var session = try CalculatorSession(configuration: .shipped())
        try session.press(["1", "2", "+", "3", "="])
        #expect(session.dropOldestSteps(3) == 3)
        #expect(session.display == "15")
        #expect(session.stepCount == 2)
        #expect(session.droppedStepCount == 3)
        #expect(session.dropOldestSteps(100) == 2)
        #expect(!session.canUndo)
        #expect(session.display == "15")
    }
}

@Suite("ValueHistory limits")
struct ValueHistoryLimitTests {
    @Test func theLimitHoldsAtEveryStep() {
        var history = ValueHistory(0, limit: 3)
        for value in 1...20 {
            history.add(value)
            #expect(history.count == min(value, 3) + 1)
            #expect(history.currentIndex == history.count - 1)
            #expect(history.stepNames.count == history.count - 1)
        }
        var seen: [Int] = []
        while history.canUndo { history.undo(); seen.append(history.current) }
        #expect(seen == [19, 18, 17])
        history.jump(to: 0)
        #expect(history.current == 17)
        history.jump(to: 99)
        #expect(history.current == 20)
        #expect(history.droppedCount == 17)
    }

    @Test func aHugeLimitDoesNotOverflow() {
        var history = ValueHistory(0, limit: .max)
        for value in 1...10 { history.add(value) }
        #expect(history.count == 11)
        #expect(history.droppedCount == 0)
    }
}
