import Foundation
import Testing
@testable import Calculator

/// Sizes from a layout file or from recorded macros are kept within limits
/// that say what is allowed (a column count of 2⁶³ − 1 once trapped the
/// terminal keypad; a macro that plays itself while recording doubled each
/// round).
@Suite("Input limits")
struct InputLimitTests {
    private func problem(_ json: String) -> ConfigurationError.Problem? {
        do {
            _ = try ButtonConfiguration.decode(from: Data(json.utf8), source: "keys.json")
            return nil
        } catch {
            return error.problem
        }
    }

    @Test func aHugeColumnCountIsRefused() {
        #expect(problem(#"{"labels": ["1", "+", "="], "columnCount": 9223372036854775807}"#)
            == .columnCountTooLarge(9_223_372_036_854_775_807))
        #expect(problem(#"{"labels": ["1", "+", "="], "columnCount": 13}"#) == .columnCountTooLarge(13))
        #expect(problem(#"{"labels": ["1", "+", "="], "columnCount": 12}"#) == nil)
        #expect(ConfigurationError.Problem.columnCountTooLarge(13).message == "\"columnCount\" must be at most 12, got 13")
    }

    @Test func tooManyOrTooLongLabelsAreRefused() {
        let many = Array(repeating: #""1""#, count: 101).joined(separator: ",")
        #expect(problem(#"{"labels": [\#(many)], "columnCount": 4}"#) == .tooManyLabels(101))
        let long = String(repeating: "1", count: 17)
        #expect(problem(#"{"labels": ["\#(long)"], "columnCount": 4}"#) == .labelTooLong(position: 1))
    }

    @Test func aMacroThatPlaysItselfWhileRecordingStaysBounded() throws {
        var session = try CalculatorSession(configuration: .shipped())
        session.startRecording(named: "a")
        try session.press("1")
        session.stopRecording()
        var refused = false
        for _ in 0..<40 {
            session.startRecording(named: "a")
            do {
                try session.play(named: "a")
                try session.play(named: "a")
            } catch {
                refused = refused || error == .tooLong("a")
            }
            session.stopRecording()
        }
        #expect(refused)
        #expect((session.macros["a"]?.labels.count ?? 0) <= Macro.maximumLength)
    }
}
