import Foundation
import Testing
import Rewind
@testable import Calculator

@Suite("Session")
struct CalculatorSessionTests {
    private func session(after keys: String) throws -> CalculatorSession {
        var session = try CalculatorSession(configuration: .shipped())
        try session.press(keys.split(separator: " ").map(String.init))
        return session
    }

    @Suite("Undo and redo")
    struct UndoRedo {
        @Test func everyKeyPressIsOneUndoStep() throws {
            var session = try CalculatorSessionTests().session(after: "1 2 + 3 =")
            #expect(session.display == "15")
            let displays = (0 ..< 5).map { _ in
                session.undo()
                return session.display
            }
            #expect(displays == ["3", "12", "12", "1", "0"])
            #expect(!session.canUndo)
        }

        @Test func redoRepeatsUndoneStepsInOrder() throws {
            var session = try CalculatorSessionTests().session(after: "1 2 + 3 =")
            for _ in 0 ..< 5 { session.undo() }
            var displays: [String] = []
            while session.canRedo {
                session.redo()
                displays.append(session.display)
            }
            #expect(displays == ["1", "12", "12", "3", "15"])
        }

        @Test func undoIsUnlimited() throws {
            var session = try CalculatorSession(configuration: .shipped())
            for _ in 0 ..< 500 { try session.press(["1", "+"]) }
            var steps = 0
            while session.undo() != nil { steps += 1 }
            #expect(steps == 1000)
            #expect(session.display == "0")
        }

        @Test func aNewKeyPressAfterUndoDropsTheRedoSteps() throws {
            var session = try CalculatorSessionTests().session(after: "1 + 2")
            session.undo()
            try session.press("5")
            #expect(!session.canRedo)
            try session.press("=")
            #expect(session.display == "6")
        }

        @Test func keysThatChangeNothingAddNoStep() throws {
            var session = try CalculatorSessionTests().session(after: "1 .")
            try session.press(".")
            session.undo()
            #expect(session.display == "1")
        }

        @Test func stepsAreNamedAfterTheirLabel() throws {
            var session = try CalculatorSessionTests().session(after: "2 *")
            #expect(session.undoActionName == "Press ×")
            #expect(session.undoTitle == "Undo Press ×")
            session.undo()
            #expect(session.redoTitle == "Redo Press ×")
        }

        @Test func undoAndRedoAcrossAnErrorState() throws {
            var session = try CalculatorSessionTests().session(after: "8 ÷ 0 = 5")
            #expect(session.display == "5")
            session.undo()
            #expect(session.display == "Cannot divide by zero")
            #expect(session.calculator.error == .divisionByZero)
            session.undo()
            #expect(session.display == "0")
            #expect(session.calculator.error == nil)
            try session.press("2")
            try session.press("=")
            #expect(session.display == "4")
            session.undo()
            session.undo()
            session.redo()
            #expect(session.display == "2")
        }

        @Test func redoIntoAnErrorState() throws {
            var session = try CalculatorSessionTests().session(after: "4 ± √")
            session.undo()
            #expect(session.display == "-4")
            session.redo()
            #expect(session.calculator.error == .squareRootOfNegative)
        }

        @Test func theSessionIsAnUndoController() throws {
            var controller: any UndoController = try CalculatorSessionTests().session(after: "7")
            #expect(controller.canUndo)
            #expect(try controller.undo() == "Press 7")
            #expect(!controller.canUndo)
            #expect(controller.canRedo)
        }

        @Test func anUndoLimitKeepsTheNewestSteps() throws {
            var session = try CalculatorSession(configuration: .shipped(), undoLimit: 2)
            try session.press(["1", "2", "3"])
            session.undo()
            session.undo()
            #expect(!session.canUndo)
            #expect(session.display == "1")
        }
    }

    @Suite("Labels")
    struct Labels {
        @Test func anUnknownLabelChangesNothing() throws {
            var session = try CalculatorSessionTests().session(after: "1 +")
            #expect(throws: UnknownLabelError.self) { try session.press(["2", "sin", "="]) }
            #expect(session.display == "1")
            #expect(session.undoActionName == "Press +")
        }

        @Test func onlyTheConfigurationsLabelsAreAccepted() throws {
            let configuration = try ButtonConfiguration(labels: ["1", "2", "+", "="], columnCount: 2)
            var session = CalculatorSession(configuration: configuration)
            try session.press(["1", "+", "2", "="])
            #expect(session.display == "3")
            #expect(throws: UnknownLabelError(label: "x", knownLabels: ["1", "2", "+", "="])) {
                try session.press("x")
            }
        }
    }

    @Suite("Tape")
    struct Tape {
        @Test func recordsEachCompletedCalculation() throws {
            let session = try CalculatorSessionTests().session(after: "1 2 + 3 = x 2 = = AC 1 ÷ 4 =")
            #expect(session.tape == ["12 + 3 = 15", "15 × 2 = 30", "30 × 2 = 60", "1 ÷ 4 = 0.25"])
        }

        @Test func usesTheDisplayFormOfEachNumber() throws {
            let session = try CalculatorSessionTests().session(after: "0 . 1 0 + 1 ÷ 3 =")
            #expect(session.tape == ["0.1 + 1 ÷ 3 = 0.3666666666666667"])
        }

        @Test func undoingEqualsTakesTheLineOffTheTape() throws {
            var session = try CalculatorSessionTests().session(after: "1 2 + 3 =")
            session.undo()
            #expect(session.tape.isEmpty)
            session.redo()
            #expect(session.tape == ["12 + 3 = 15"])
        }
    }

    @Suite("Macros")
    struct Macros {
        private func sessionWithTaxMacro() throws -> CalculatorSession {
            var session = try CalculatorSession(configuration: .shipped())
            try session.press(["1", "0"])
            session.startRecording(named: "add tax")
            #expect(session.recordingMacroName == "add tax")
            try session.press(["x", "1", ".", "2", "="])
            let macro = session.stopRecording()
            #expect(macro == Macro(name: "add tax", labels: ["x", "1", ".", "2", "="]))
            #expect(session.recordingMacroName == nil)
            #expect(session.display == "12")
            return session
        }

        @Test func replayRunsTheRecordedKeysOnTheCurrentValue() throws {
            var session = try sessionWithTaxMacro()
            try session.press(["1", "0", "0"])
            try session.play(named: "add tax")
            #expect(session.display == "120")
            #expect(session.tape.last == "100 × 1.2 = 120")
        }

        @Test func oneUndoUndoesTheWholeReplay() throws {
            var session = try sessionWithTaxMacro()
            try session.press(["5", "0"])
            try session.play(named: "add tax")
            #expect(session.display == "60")
            #expect(session.undoActionName == "Play “add tax”")
            session.undo()
            #expect(session.display == "50")
            session.redo()
            #expect(session.display == "60")
        }

        @Test func replayingTwiceAppliesTwice() throws {
            var session = try sessionWithTaxMacro()
            try session.play(named: "add tax")
            try session.play(named: "add tax")
            #expect(session.display == "17.28")
        }

        @Test func aliasesAreRecordedAsTheirLabel() throws {
            var session = try CalculatorSession(configuration: .shipped())
            session.startRecording(named: "double")
            try session.press(["*", "2", "="])
            #expect(session.stopRecording()?.labels == ["x", "2", "="])
        }

        @Test func undoIsNotRecorded() throws {
            var session = try CalculatorSession(configuration: .shipped())
            session.startRecording(named: "m")
            try session.press(["+", "9"])
            session.undo()
            try session.press(["1", "="])
            #expect(session.stopRecording()?.labels == ["+", "9", "1", "="])
        }

        @Test func unknownMacroThrows() throws {
            var session = try sessionWithTaxMacro()
            #expect(throws: MacroError.unknownMacro("vat", knownNames: ["add tax"])) {
                try session.play(named: "vat")
            }
        }

        @Test func aMacroWithALabelThisKeypadLacksChangesNothing() throws {
            let configuration = try ButtonConfiguration(labels: ["1", "+", "="], columnCount: 3)
            var session = CalculatorSession(configuration: configuration)
            try session.press("1")
            #expect(throws: MacroError.self) {
                try session.play(Macro(name: "m", labels: ["+", "2", "="]))
            }
            #expect(session.display == "1")
            #expect(session.undoActionName == "Press 1")
        }

        @Test func stopWithoutRecordingReturnsNil() throws {
            var session = try CalculatorSession(configuration: .shipped())
            #expect(session.stopRecording() == nil)
        }
    }

    @Suite("Snapshot")
    struct Snapshot {
        @Test func encodesEveryFieldWithNulls() throws {
            let session = try CalculatorSessionTests().session(after: "1 ÷ 0 =")
            let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(session.snapshot)) as? [String: Any]
            let object = try #require(json)
            #expect(object["display"] as? String == "Cannot divide by zero")
            #expect(object["value"] is NSNull)
            #expect(object["error"] as? String == "Cannot divide by zero")
            #expect(object["canUndo"] as? Bool == true)
            #expect(object["canRedo"] as? Bool == false)
            #expect((object["tape"] as? [Any])?.isEmpty == true)
        }

        @Test func valueIsTheFullPrecisionNumber() throws {
            let snapshot = try CalculatorSessionTests().session(after: "2 ÷ 3 =").snapshot
            #expect(snapshot.display == "0.6666666666666667")
            #expect(snapshot.value == "0." + String(repeating: "6", count: 38))
            #expect(snapshot.error == nil)
        }
    }
}
