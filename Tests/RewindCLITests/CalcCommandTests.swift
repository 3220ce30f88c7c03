import Foundation
import Testing
import TestSupport

@Suite("rewind calc")
struct CalcCommandTests {
    @Suite("Keys as arguments")
    struct Arguments {
        @Test func decimalArithmeticIsExact() async throws {
            let run = try await runRewind(["calc", "0.1", "+", "0.2", "="])
            #expect(run.status == 0)
            #expect(run.stdout == "0.3\n")
            #expect(run.stderr.isEmpty)
        }

        @Test func divisionByZeroPrintsTheErrorAndSucceeds() async throws {
            let run = try await runRewind(["calc", "1", "÷", "0", "="])
            #expect(run.status == 0)
            #expect(run.stdout == "Cannot divide by zero\n")
        }

        @Test func aMistypedOptionIsNamedAsOneNotAsAKey() async throws {
            let run = try await runRewind(["calc", "--jsn", "2", "+", "3", "="])
            #expect(run.status == 64)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr == "rewind calc: unknown option “--jsn” (did you mean --json?); the options of rewind calc are --json, --config FILE, --help and --version\n")
            // After `--` every word is a key; `--5` is minus, then 5 negated.
            #expect(try await runRewind(["calc", "--", "--jsn"]).status == 1)
            #expect(try await runRewind(["calc", "8", "--5", "="]).output == "13")
        }

        @Test func undoAmongTheKeys() async throws {
            let run = try await runRewind(["calc", "1", "2", "+", "3", "=", "undo"])
            #expect(run.status == 0)
            #expect(run.stdout == "3\n")
        }

        @Test func redoAmongTheKeys() async throws {
            #expect(try await runRewind(["calc", "1", "2", "+", "3", "=", "undo", "undo", "redo"]).output == "3")
            #expect(try await runRewind(["calc", "1", "2", "+", "3", "=", "undo", "redo"]).output == "15")
        }

        @Test func digitsAsSeparateKeys() async throws {
            #expect(try await runRewind(["calc", "1", "2", "+", "3", "x", "2", "="]).output == "30")
        }

        @Test func operationsRunInTheOrderEntered() async throws {
            #expect(try await runRewind(["calc", "2", "+", "3", "x", "4", "="]).output == "20")
        }

        @Test func minusAndNegativeNumbersAreKeysNotOptions() async throws {
            #expect(try await runRewind(["calc", "5", "-", "3", "="]).output == "2")
            #expect(try await runRewind(["calc", "-", "5", "="]).output == "-5")
            #expect(try await runRewind(["calc", "-5", "x", "2", "="]).output == "-10")
            #expect(try await runRewind(["calc", "7", "-", "-2", "="]).output == "9")
            #expect(try await runRewind(["calc", "--", "5", "-", "3", "="]).output == "2")
        }

        @Test(arguments: [("*", "12"), ("×", "12"), ("x", "12"), ("/", "3"), ("÷", "3")])
        func operatorAliases(label: String, expected: String) async throws {
            #expect(try await runRewind(["calc", "6", label, "2", "="]).output == expected)
        }

        @Test func wholeNumbersAreTypedKeyByKey() async throws {
            #expect(try await runRewind(["calc", "12.5", "x", "2", "="]).output == "25")
            #expect(try await runRewind(["calc", ".5", "+", "1", "="]).output == "1.5")
        }

        @Test func functionKeys() async throws {
            #expect(try await runRewind(["calc", "9", "√"]).output == "3")
            #expect(try await runRewind(["calc", "12", "x²"]).output == "144")
            #expect(try await runRewind(["calc", "200", "+", "10", "%", "="]).output == "220")
            #expect(try await runRewind(["calc", "5", "±"]).output == "-5")
            #expect(try await runRewind(["calc", "123", "⌫"]).output == "12")
            #expect(try await runRewind(["calc", "5", "+", "3", "C", "2", "="]).output == "7")
        }

        @Test func macrosRecordAndPlayAsOneStep() async throws {
            let keys = ["100", "record", "tax", "x", "1.2", "=", "stop", "50", "play", "tax"]
            #expect(try await runRewind(["calc"] + keys).output == "60")
            #expect(try await runRewind(["calc"] + keys + ["undo"]).output == "50")
        }

        /// `stop` without a recording is refused, and so is a line or an
        /// argument list that fails part way: nothing of it is pressed.
        @Test func stopWithoutARecordingIsRefusedAndNothingIsPressed() async throws {
            let run = try await runRewind(["calc", "5", "+", "1", "stop", "="])
            #expect(run.status == 1)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr == "rewind calc: \"stop\" ends the recording of a macro, and none is being recorded; start one with \"record NAME\"\n")
            let lines = try await runRewind(["calc"], stdin: "5 + 1\n= stop\n=\nplay nothing\n2 = play tax\n")
            #expect(lines.status == 1)
            #expect(lines.lines == ["1", "6"], "the failed lines pressed nothing: 5 + 1, then =")
            #expect(lines.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 3)
        }

        /// A number with more digits than the calculator takes is refused,
        /// not cut to its first 16 (which answered for another number).
        @Test func aNumberWithMoreDigitsThanTheCalculatorTakesIsRefused() async throws {
            let long = try await runRewind(["calc", "12345678901234567890", "+", "1", "="])
            #expect(long.status == 1)
            #expect(long.stdout.isEmpty)
            #expect(long.stderr == "rewind calc: \"12345678901234567890\" has 20 digits; the calculator takes numbers of at most 16 digits\n")
            let together = try await runRewind(["calc", "1+-12345678901234567="])
            #expect(together.stderr == "rewind calc: \"12345678901234567\" in \"1+-12345678901234567=\" has 17 digits; the calculator takes numbers of at most 16 digits\n")
            #expect(try await runRewind(["calc", "-12345678901234567"]).stderr.hasPrefix("rewind calc: \"-12345678901234567\" has 17 digits"))
            // However long, the number is named in one short line.
            let huge = try await runRewind(["calc", String(repeating: "9", count: 5_000)])
            #expect(huge.stderr == "rewind calc: \"\(String(repeating: "9", count: 40))…\" has 5000 digits; the calculator takes numbers of at most 16 digits\n")
            // Sixteen digits, and zeros before the first other digit, are taken.
            #expect(try await runRewind(["calc", "1234567890123456", "+", "1", "="]).output == "1234567890123457")
            #expect(try await runRewind(["calc", "0000.0000000000000001", "x", "10", "="]).output == "1e-15")
            // Key by key, as on a pocket calculator, the extra digits are ignored.
            let keys = Array(repeating: "9", count: 17) + ["="]
            #expect(try await runRewind(["calc"] + keys).output == "9999999999999999")
        }

        /// A second decimal point would be ignored, as key by key: "1.5.5"
        /// would be 1.55. Written in one word, it is refused.
        @Test func aNumberWithTwoPointsIsRefused() async throws {
            let run = try await runRewind(["calc", "1.5.5", "+", "1", "="])
            #expect(run.status == 1)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr == "rewind calc: \"1.5.5\" has 2 decimal points; a number has at most one\n")
            let together = try await runRewind(["calc", "2x1.5.5="])
            #expect(together.stderr == "rewind calc: \"1.5.5\" in \"2x1.5.5=\" has 2 decimal points; a number has at most one\n")
            #expect(try await runRewind(["calc", "1.5", "+", ".5", "="]).output == "2")
            #expect(try await runRewind(["calc", "1", ".", "5", ".", "5", "="]).output == "1.55", "key by key, as on a pocket calculator")
        }

        /// Recording a second macro before `stop` would drop the first without a word.
        @Test func aRecordingIsNotReplacedByAnotherUnstopped() async throws {
            let run = try await runRewind(["calc", "record", "a", "1", "record", "b", "2", "stop", "play", "a"])
            #expect(run.status == 1)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr == "rewind calc: \"record b\" came while the macro \"a\" is being recorded; end it with \"stop\" first\n")
            // Stopped first, both are kept: 1 + 2 = 3, then again by playing them.
            let both = ["record", "a", "1", "stop", "+", "record", "b", "2", "stop", "=", "play", "a", "x", "play", "b", "x", "play", "a", "="]
            #expect(try await runRewind(["calc"] + both).output == "2")
        }

        /// A press the macro could not keep is refused, not left out of it without a word.
        @Test func aPressPastWhatAMacroKeepsIsRefusedUntilStop() async throws {
            let maximum = 10_000  // Macro.maximumLength, as the README gives it
            let presses = Array(repeating: "1 +", count: maximum / 2).joined(separator: " ")
            let lines = "record m\n\(presses)\n1\nstop\nAC\nplay m\n1 =\n"
            let run = try await runRewind(["calc"], stdin: lines)
            #expect(run.status == 1)
            #expect(run.stderr == "rewind calc: the macro \"m\" holds \(maximum) presses, the most a macro keeps; end it with \"stop\" before pressing more\n")
            // The macro keeps every press it took: 1 + 1 + … (5,000 ones) then 1 = is 5001.
            #expect(run.stdout.split(separator: "\n").last == "5001")
        }

        /// What an earlier rounding leaves below the digits shown is no result of its own.
        @Test func aChainWhoseDisplayShowsOneLessOneIsZero() async throws {
            #expect(try await runRewind(["calc", "1", "÷", "3", "=", "x", "3", "=", "-", "1", "="]).output == "0")
            #expect(try await runRewind(["calc", "2", "√", "x²", "-", "2", "="]).output == "0")
            #expect(try await runRewind(["calc", "1", "-", "0.9999999999999999", "="]).output == "1e-16")
        }

        @Test func keysWrittenTogetherArePressedOneByOne() async throws {
            #expect(try await runRewind(["calc", "1+2="]).output == "3")
            #expect(try await runRewind(["calc", "0.1+0.2="]).output == "0.3")
            #expect(try await runRewind(["calc", "12x-3="]).output == "-36", "a minus after an operator makes the number negative")
            #expect(try await runRewind(["calc", "-5+2="]).output == "-3")
            #expect(try await runRewind(["calc", "2--3="]).output == "5")
            #expect(try await runRewind(["calc", "3x^2"]).output == "9", "the longest label or alias wins: x^2, not x")
            #expect(try await runRewind(["calc", "10/4", "="]).output == "2.5")
            let run = try await runRewind(["calc", "1+sin="])
            #expect(run.status != 0)
            #expect(run.stderr.hasPrefix("rewind calc: Unknown label \"1+sin=\"; known labels: "))
            let control = try await runRewind(["calc", "1+2=\u{1B}[2J\u{07}"])
            #expect(control.stderr.hasPrefix("rewind calc: Unknown label \"1+2=^[[2J^G\""), "\(control.stderr)")
        }

        /// 1,5 might be one and a half or, as 1,000 is, a thousands separator: not guessed.
        @Test func aNumberWithACommaIsRefusedSayingHowToWriteIt() async throws {
            for word in ["1,5", "1,000", "-2,5", "1,5+1=", ","] {
                let run = try await runRewind(["calc", word, "+", "1", "="])
                #expect(run.status == 1)
                #expect(run.stdout.isEmpty)
                #expect(run.stderr == "rewind calc: \"\(word)\" holds a comma; write a decimal point as a point and a number without thousands separators (1.5, 1000)\n")
            }
        }

        @Test func anUnknownLabelFailsWithOneLineOnStandardError() async throws {
            let run = try await runRewind(["calc", "1", "+", "sin", "="])
            #expect(run.status != 0)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.hasPrefix("rewind calc: Unknown label \"sin\"; known labels: "))
            #expect(run.stderr.filter { $0 == "\n" }.count == 1)
        }

        @Test func scientificNotationBeyondSixteenDigits() async throws {
            #expect(try await runRewind(["calc", "100000000", "x²", "x²"]).output == "1e32")
            #expect(try await runRewind(["calc", "2", "÷", "3", "="]).output == "0.6666666666666667")
        }
    }

    @Suite("--json")
    struct JSON {
        private func object(_ arguments: [String]) async throws -> [String: Any] {
            let run = try await runRewind(["calc", "--json"] + arguments)
            #expect(run.status == 0)
            #expect(run.lines.count == 1)
            let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            return try #require(object)
        }

        @Test func reportsDisplayValueUndoStateAndTape() async throws {
            let json = try await object(["2", "+", "3", "x", "4", "="])
            #expect(json["display"] as? String == "20")
            #expect(json["value"] as? String == "20")
            #expect(json["error"] is NSNull)
            #expect(json["canUndo"] as? Bool == true)
            #expect(json["canRedo"] as? Bool == false)
            #expect(json["tape"] as? [String] == ["2 + 3 × 4 = 20"])
        }

        @Test func keysAreInTheDocumentedOrder() async throws {
            let run = try await runRewind(["calc", "--json", "1"])
            #expect(run.stdout == #"{"display":"1","value":"1","error":null,"canUndo":true,"canRedo":false,"tape":[]}"# + "\n")
        }

        @Test func valueIsFullPrecision() async throws {
            let json = try await object(["1", "÷", "3", "="])
            #expect(json["display"] as? String == "0.3333333333333333")
            #expect(json["value"] as? String == "0." + String(repeating: "3", count: 38))
        }

        @Test func errorStateHasNullValue() async throws {
            let json = try await object(["1", "÷", "0", "=", "undo", "redo"])
            #expect(json["display"] as? String == "Cannot divide by zero")
            #expect(json["value"] is NSNull)
            #expect(json["error"] as? String == "Cannot divide by zero")
            #expect(json["canRedo"] as? Bool == false)
        }

        @Test func canRedoAfterUndo() async throws {
            let json = try await object(["7", "undo"])
            #expect(json["canUndo"] as? Bool == false)
            #expect(json["canRedo"] as? Bool == true)
            #expect(json["display"] as? String == "0")
        }
    }

    @Suite("--config")
    struct Config {
        private func file(_ contents: String) throws -> URL {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("calc-\(UUID().uuidString).json")
            try Data(contents.utf8).write(to: url)
            return url
        }

        @Test func usesTheLabelsOfTheFile() async throws {
            let url = try file(#"{"labels": ["1", "2", "+", "*", "="], "columnCount": 5}"#)
            defer { try? FileManager.default.removeItem(at: url) }
            #expect(try await runRewind(["calc", "--config", url.path, "12", "*", "2", "="]).output == "24")
            let run = try await runRewind(["calc", "--config", url.path, "1", "-", "1"])
            #expect(run.status != 0)
            #expect(run.stderr == "rewind calc: Unknown label \"-\"; known labels: 1 2 + * =\n")
            // A negative number needs ±, which this keypad lacks: said as that, not as a key never typed.
            let negative = try await runRewind(["calc", "--config", url.path, "-12", "*", "2", "="])
            #expect(negative.status == 1)
            #expect(negative.stderr == "rewind calc: \"-12\" is a negative number, and this keypad has no ± key to make one\n")
            let joined = try await runRewind(["calc", "--config", url.path, "12*-2="])
            #expect(joined.status == 1)
            #expect(joined.stderr == "rewind calc: \"12*-2=\" holds a negative number, and this keypad has no ± key to make one\n")
        }

        @Test func oneArgumentMayHoldSeveralKeysApart() async throws {
            #expect(try await runRewind(["calc", "5 + 2 ="]).output == "7")
            #expect(try await runRewind(["calc", "5 +", "2", "x 3 ="]).output == "21")
            // A macro's name is one argument, spaces and all.
            #expect(try await runRewind(["calc", "record", "add one", "+ 1", "stop", "AC", "5", "play", "add one", "="]).output == "6")
        }

        @Test func aKeypadLabelledWithAliasesTakesEverySpellingOfItsKeys() async throws {
            let url = try file(#"{"labels": ["7", "8", "9", "1", "2", "3", "0", "+/-", "*", "=", "-", "AC"], "columnCount": 3}"#)
            defer { try? FileManager.default.removeItem(at: url) }
            #expect(try await runRewind(["calc", "--config", url.path, "-7", "*", "2", "="]).output == "-14")
            #expect(try await runRewind(["calc", "--config", url.path, "7", "±", "x", "2", "="]).output == "-14")
            #expect(try await runRewind(["calc", "--config", url.path, "7×2="]).output == "14")
        }

        @Test(arguments: [
            (#"{"labels": ["1"], "columnCount": 2.5}"#, "\"columnCount\" must be a whole number"),
            (#"{"labels": ["1"], "columnCount": 0}"#, "\"columnCount\" must be at least 1, got 0"),
            (#"{"labels": ["1", ""], "columnCount": 2}"#, "label 2 is empty"),
            (#"{"labels": ["1", "sin"], "columnCount": 2}"#, "unknown label \"sin\""),
            (#"{"labels": ["1"], "#, "not valid JSON"),
            // A misspelt field would otherwise be left unread without a word.
            (#"{"labels": ["1"], "columnCount": 1, "colums": 3}"#, "unknown field \"colums\"; a keypad has \"labels\" and \"columnCount\""),
            (#"{"labels": ["1"], "columnCount": 1}"# + String(repeating: " ", count: 70_000), "larger than 64 KiB"),
        ])
        func anInvalidFileFailsWithOneLineNamingTheFileAndTheProblem(contents: String, problem: String) async throws {
            let url = try file(contents)
            defer { try? FileManager.default.removeItem(at: url) }
            let run = try await runRewind(["calc", "--config", url.path, "1"])
            #expect(run.status != 0)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.hasPrefix("rewind calc: Invalid button configuration \(url.path): \(problem)"))
            #expect(run.stderr.filter { $0 == "\n" }.count == 1)
        }

        /// `--config /dev/stdin` and `--config <(…)` read a pipe.
        @Test func aLayoutIsReadFromAPipe() async throws {
            let binary = try rewindBinaryURL().path
            let run = try await runProcess(
                URL(fileURLWithPath: "/bin/sh"),
                ["-c", #"printf '{"labels": ["1", "+", "="], "columnCount": 3}' | "$0" calc --config /dev/stdin 1 + 1 ="#, binary])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.output == "2")
        }

        @Test func aMissingFileFails() async throws {
            let run = try await runRewind(["calc", "--config", "/nonexistent/keys.json", "1"])
            #expect(run.status != 0)
            #expect(run.stderr == "rewind calc: Invalid button configuration /nonexistent/keys.json: cannot be read (no such file)\n")
        }
    }

    @Suite("Lines from standard input")
    struct LineMode {
        @Test func printsTheDisplayAfterEachLine() async throws {
            let run = try await runRewind(["calc"], stdin: "1 2 +\n3 =\nundo\n\n")
            #expect(run.status == 0)
            #expect(run.lines == ["12", "15", "3", "3"])
        }

        @Test func printsJSONAfterEachLine() async throws {
            let run = try await runRewind(["calc", "--json"], stdin: "2 x\n4 =\n")
            #expect(run.lines.count == 2)
            #expect(run.lines.last?.hasPrefix(#"{"display":"8","#) == true)
        }

        @Test func anUnknownLabelSkipsItsLineAndFailsAtTheEnd() async throws {
            let run = try await runRewind(["calc"], stdin: "1 +\n2 sin\n3 =\n")
            #expect(run.status != 0)
            #expect(run.lines == ["1", "4"])
            #expect(run.stderr.hasPrefix("rewind calc: Unknown label \"sin\""))
        }

        @Test func noInputPrintsNothing() async throws {
            let run = try await runRewind(["calc"])
            #expect(run.status == 0)
            #expect(run.stdout.isEmpty)
        }
    }

    @Suite("Interactive mode")
    struct Interactive {
        /// What `rewind calc` showed on a terminal while `chunks` were typed
        /// one after another, each once the screen showed the one before.
        private struct Session {
            /// Everything written to the terminal.
            var screen: String
            /// Whether the terminal was in raw mode while the keypad showed.
            var wasRaw: Bool
            /// Whether the terminal was cooked and echoing again at the end.
            var isRestored: Bool
        }

        /// The screen is redrawn from the top after each key read.
        private static let redraw = "\u{1B}[H\u{1B}[J"

        /// Runs `rewind calc` on a pseudo-terminal and types `chunks`: each but
        /// the last once the screen was redrawn after the one before (so that
        /// a lone Escape arrives alone), the last (which quits) then waiting
        /// for the program to exit.
        private func session(typing chunks: [String]) async throws -> Session {
            let terminal = try PseudoTerminal(try rewindBinaryURL(), ["calc"], environment: ["TERM": "xterm"])
            func redraws() -> Int { terminal.screen.components(separatedBy: Self.redraw).count - 1 }
            // The keypad is drawn after the terminal was put in raw mode.
            try await waitUntil("the keypad; the screen shows \(terminal.screen.debugDescription)") { redraws() >= 1 }
            let wasRaw = !terminal.isCookedAndEchoing
            for chunk in chunks.dropLast() {
                let before = redraws()
                terminal.type(chunk)
                try await waitUntil("a redraw after typing \(chunk.debugDescription)") { redraws() > before }
            }
            terminal.type(chunks.last ?? "q")
            try await terminal.waitForExit()
            // The last display, on the normal screen, is the last line written.
            try await waitUntil("the last display; the screen shows \(terminal.screen.debugDescription)") {
                terminal.screen.components(separatedBy: "\u{1B}[?1049l").last?.hasSuffix("\r\n") == true
            }
            return Session(screen: terminal.screen, wasRaw: wasRaw, isRestored: terminal.isCookedAndEchoing)
        }

        @Test func showsTheKeypadAndPressesTypedKeys() async throws {
            let screen = try await session(typing: ["12+3=", "q"]).screen
            #expect(screen.contains("[ AC ]"))
            #expect(screen.contains("[ x² ]"))
            // Drawn with their signs, as on the web page and the tape.
            #expect(screen.contains("[ ×  ]"))
            #expect(screen.contains("[ −  ]"))
            #expect(!screen.contains("[ x  ]"))
            #expect(!screen.contains("[ -  ]"))
            #expect(screen.contains("12 + 3 = 15"))
            // The last display is printed after leaving the full screen.
            #expect(screen.hasSuffix("\u{1B}[?1049l15\r\n"))
        }

        @Test func undoRedoEscapeAndBackspace() async throws {
            let screen = try await session(typing: ["12+3=", "u", "r", "u", "\u{1B}", "45\u{7F}", "q"]).screen
            #expect(screen.hasSuffix("\u{1B}[?1049l4\r\n"))
        }

        @Test func controlDQuitsAndTheTerminalIsRestored() async throws {
            let session = try await session(typing: ["7", "\u{04}"])
            #expect(session.screen.hasSuffix("\u{1B}[?1049l7\r\n"))
            #expect(session.wasRaw, "the keypad reads keys, not lines")
            #expect(session.isRestored, "the terminal is cooked and echoes again")
        }
    }
}
