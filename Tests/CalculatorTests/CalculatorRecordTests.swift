import Foundation
import Rewind
import TestSupport
import Testing
@testable import Calculator

/// A session written as a ``CalculatorRecord`` (through JSON, as a store
/// keeps it) and made again is the same session: same display, tape,
/// undo and redo, and it goes on the same way.
@Suite("Calculator record")
struct CalculatorRecordTests {
    /// The record of `session` after a trip through JSON.
    private func stored(_ session: CalculatorSession) throws -> CalculatorRecord {
        try JSONDecoder().decode(CalculatorRecord.self, from: JSONEncoder().encode(session.record))
    }

    private func expectSame(_ restored: CalculatorSession, _ session: CalculatorSession, _ comment: Comment) {
        #expect(restored.calculator == session.calculator, comment)
        #expect(restored.snapshot == session.snapshot, comment)
        #expect(restored.position == session.position, comment)
        #expect(restored.droppedStepCount == session.droppedStepCount, comment)
        #expect(restored.undoActionName == session.undoActionName, comment)
        #expect(restored.redoActionName == session.redoActionName, comment)
        #expect(restored.stepLabels == session.stepLabels, comment)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func aRandomSessionMadeAgainFromItsRecordIsTheSameAndGoesOnTheSameWay(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let configuration = try ButtonConfiguration.shipped()
        let labels = configuration.labels + ["*", "/"]
        var session = CalculatorSession(configuration: configuration, undoLimit: 40)
        for round in 0..<600 {
            switch Int.random(in: 0..<20, using: &generator) {
            case 0..<13: try session.press(labels.randomElement(using: &generator) ?? "1")
            case 13..<16: session.undo()
            case 16..<18: session.redo()
            default: session.dropOldestSteps(Int.random(in: 0..<5, using: &generator))
            }
            guard round % 7 == 0 else { continue }
            let record = try stored(session)
            var restored = try CalculatorSession(configuration: configuration, undoLimit: 40, restoring: record)
            expectSame(restored, session, "seed \(seed), round \(round)")
            // Both go on the same way: every undo, then every redo.
            var original = session
            while original.canUndo {
                original.undo()
                restored.undo()
                #expect(restored.snapshot == original.snapshot, "seed \(seed), round \(round), undoing")
            }
            #expect(!restored.canUndo)
            while original.canRedo {
                original.redo()
                restored.redo()
                #expect(restored.calculator == original.calculator, "seed \(seed), round \(round), redoing")
            }
            #expect(!restored.canRedo)
        }
    }

    @Test func thePressesThatMadeStepsAreTheRecordsLabelsUnderTheirOwnNames() throws {
        var session = try CalculatorSession(configuration: .shipped())
        #expect(try session.press(["1", ".", ".", "*", "2", "="]) == ["1", ".", "x", "2", "="])
        #expect(try session.press(".") == ".")
        #expect(try session.press(".") == nil)
        session.undo()
        let record = session.record
        #expect(record.steps == ["1", ".", "x", "2", "=", "."])
        #expect(record.position == 5)
        #expect(record.droppedSteps == 0)
        #expect(record.base == Calculator())
    }

    @Test func droppedStepsMoveTheBaseAndKeepTheNumbering() throws {
        var session = try CalculatorSession(configuration: .shipped())
        try session.press(["2", "+", "3", "=", "x", "4"])
        session.dropOldestSteps(4)
        let record = session.record
        #expect(record.droppedSteps == 4)
        #expect(record.steps == ["x", "4"])
        #expect(record.position == 6)
        #expect(record.base.display == "5")
        #expect(record.base.tape == ["2 + 3 = 5"])
        var restored = try CalculatorSession(configuration: .shipped(), restoring: record)
        #expect(restored.display == "4")
        restored.undo()
        restored.undo()
        #expect(restored.display == "5")
        #expect(!restored.canUndo)
        #expect(restored.droppedStepCount == 4)
    }

    @Test func aStepOfAnotherKeypadStillReplays() throws {
        let small = try ButtonConfiguration(labels: ["1", "2", "+", "="], columnCount: 2)
        let record = CalculatorRecord(steps: ["9", "√"], position: 2)
        let restored = try CalculatorSession(configuration: small, restoring: record)
        #expect(restored.display == "3")
        #expect(throws: UnknownLabelError.self) {
            var session = restored
            try session.press("√")
        }
    }

    @Test func aRecordThatDoesNotReplayIsRefusedWithWhy() throws {
        let configuration = try ButtonConfiguration.shipped()
        #expect(throws: CalculatorRecordError.positionOutside(position: 3, first: 0, last: 2)) {
            try CalculatorSession(configuration: configuration, restoring: CalculatorRecord(steps: ["1", "2"], position: 3))
        }
        #expect(throws: CalculatorRecordError.positionOutside(position: 1, first: 2, last: 3)) {
            try CalculatorSession(
                configuration: configuration,
                restoring: CalculatorRecord(droppedSteps: 2, steps: ["1"], position: 1))
        }
        #expect(throws: CalculatorRecordError.unknownLabel(step: 2, label: "?")) {
            try CalculatorSession(configuration: configuration, restoring: CalculatorRecord(steps: ["1", "?"], position: 2))
        }
        #expect(throws: CalculatorRecordError.stepChangesNothing(step: 3, label: ".")) {
            try CalculatorSession(
                configuration: configuration, restoring: CalculatorRecord(steps: ["1", ".", "."], position: 3))
        }
    }

    @Test(arguments: [
        "1 ÷ 3 =", "1 ÷ 0", "2 + 3 = =", "5 ± .", "9 + 16 √", "7 x² x² x² x² x² x²", "0 . 0 0 1 ⌫",
        "99999999 x 99999999 x 99999999 x 99999999 =", "1 ÷ 7 = x² x² x² x² x²", "200 + 10 %",
    ])
    func aCalculatorReadBackFromJSONIsEqualToTheOneWritten(keys: String) throws {
        var session = try CalculatorSession(configuration: .shipped())
        // A number of several digits is typed digit by digit.
        let labels = keys.split(separator: " ").flatMap { word in
            word.allSatisfy(\.isNumber) ? word.map(String.init) : [String(word)]
        }
        try session.press(labels)
        let calculator = session.calculator
        let read = try JSONDecoder().decode(Calculator.self, from: JSONEncoder().encode(calculator))
        #expect(read == calculator)
        #expect(read.value == calculator.value)
        // It goes on the same way.
        var a = calculator
        var b = read
        for key: Key in [.operation(.addition), .digit(.three), .equals, .equals] {
            a.press(key)
            b.press(key)
            #expect(a == b)
        }
    }

    @Test func aLongChainAndALongTapeReadBackWhole() throws {
        var calculator = Calculator()
        for _ in 0..<300 {
            for _ in 0..<40 { calculator.press(.digit(.one)); calculator.press(.operation(.addition)) }
            calculator.press(.equals)
        }
        for _ in 0..<40 { calculator.press(.digit(.two)); calculator.press(.operation(.multiplication)) }
        let read = try JSONDecoder().decode(Calculator.self, from: JSONEncoder().encode(calculator))
        #expect(read == calculator)
        #expect(read.tape.count == calculator.tape.count)
        calculator.press(.equals)
        var after = read
        after.press(.equals)
        #expect(after.tape.last == calculator.tape.last)
    }

    @Test(arguments: [
        #"{"accumulator": "abc", "expression": [], "elided": 0, "tape": []}"#,
        #"{"accumulator": "1", "input": {"typed": "12a"}, "expression": [], "elided": 0, "tape": []}"#,
        #"{"accumulator": "1", "input": {"typed": "1.2.3"}, "expression": [], "elided": 0, "tape": []}"#,
        #"{"accumulator": "1", "input": {"typed": "00"}, "expression": [], "elided": 0, "tape": []}"#,
        #"{"accumulator": "1", "input": {"typed": "12345678901234567890"}, "expression": [], "elided": 0, "tape": []}"#,
        #"{"accumulator": "1", "pending": "modulo", "expression": [], "elided": 0, "tape": []}"#,
        #"{"accumulator": "1", "expression": [], "elided": -2, "tape": []}"#,
        #"{"accumulator": "1", "expression": [], "elided": 0}"#,
        #"{"accumulator": "NaN", "expression": [], "elided": 0, "tape": []}"#,
    ])
    func aCalculatorThatCouldNotBeMadeIsRefused(json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Calculator.self, from: Data(json.utf8))
        }
    }
}
