import Foundation
import Testing
@testable import Calculator

@Suite("Button configuration")
struct ButtonConfigurationTests {
    private func decode(_ json: String, source: String = "keys.json") throws(ConfigurationError) -> ButtonConfiguration {
        try ButtonConfiguration.decode(from: Data(json.utf8), source: source)
    }

    private func problem(_ json: String) -> ConfigurationError.Problem? {
        do {
            _ = try decode(json)
            return nil
        } catch {
            return error.problem
        }
    }

    /// The shipped JSON file in the source tree.
    private static let sourceResourceURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Calculator/Resources/ButtonConfiguration.json")

    @Test func decodesAValidConfiguration() throws {
        let configuration = try decode(#"{"labels": ["7", "8", "9", "÷", "AC"], "columnCount": 2}"#)
        #expect(configuration.labels == ["7", "8", "9", "÷", "AC"])
        #expect(configuration.columnCount == 2)
        #expect(configuration.rows == [["7", "8"], ["9", "÷"], ["AC"]])
    }

    @Test func theShippedLayoutIsValidAndHasEveryKey() throws {
        let shipped = try ButtonConfiguration.load(contentsOf: Self.sourceResourceURL)
        #expect(shipped.columnCount == 4)
        #expect(shipped.rows.first == ["AC", "C", "⌫", "÷"])
        #expect(Set(shipped.labels) == Set(CommandFactory.standard.labels), "the shipped keypad has every key")
    }

    @Test func theShippedResourceIsFoundNextToTheTestsAndIsTheSourceFile() throws {
        let url = try #require(ButtonConfiguration.shippedResourceURL())
        #expect(url.lastPathComponent == "ButtonConfiguration.json")
        #expect(try ButtonConfiguration.shipped() == ButtonConfiguration.load(contentsOf: Self.sourceResourceURL))
    }

    @Test func aMissingResourceSaysWhichFolderBelongsWhere() {
        let error = ConfigurationError(source: "ButtonConfiguration.json", problem: .resourceMissing("Rewind_Calculator.resources/ButtonConfiguration.json is missing"))
        #expect(error.description == "The calculator's keypad cannot be loaded: Rewind_Calculator.resources/ButtonConfiguration.json is missing")
    }

    @Test func rejectsBadJSON() {
        #expect(problem("{labels: [") == .invalidJSON)
        #expect(problem("") == .invalidJSON)
    }

    @Test func rejectsMissingAndMistypedFields() {
        #expect(problem(#"{"labels": ["1"]}"#) == .missingField("columnCount"))
        #expect(problem(#"{"columnCount": 4}"#) == .missingField("labels"))
        #expect(problem(#"{"labels": ["1"], "columnCount": "4"}"#) == .wrongType(field: "columnCount", expected: "a whole number"))
        #expect(problem(#"{"labels": ["1", 2], "columnCount": 4}"#) == .wrongType(field: "labels[1]", expected: "a string"))
        #expect(problem(#"["1", "2"]"#) != nil)
    }

    @Test func aColumnCountThatIsNoWholeNumberAndLabelsThatAreNoListAreNamed() {
        for count in ["2.5", "99999999999999999999", "1e30"] {
            #expect(problem(#"{"labels": ["1"], "columnCount": \#(count)}"#) == .wrongType(field: "columnCount", expected: "a whole number"))
        }
        #expect(problem(#"{"labels": "1+=", "columnCount": 3}"#) == .wrongType(field: "labels", expected: "a list of strings"))
    }

    @Test(arguments: [0, -1])
    func rejectsAColumnCountBelowOne(count: Int) {
        #expect(problem(#"{"labels": ["1"], "columnCount": \#(count)}"#) == .columnCountTooSmall(count))
    }

    @Test func rejectsAnEmptyLabel() {
        #expect(problem(#"{"labels": ["1", "", "2"], "columnCount": 4}"#) == .emptyLabel(position: 2))
        #expect(problem(#"{"labels": ["1", "  "], "columnCount": 4}"#) == .emptyLabel(position: 2))
    }

    @Test func rejectsNoLabels() {
        #expect(problem(#"{"labels": [], "columnCount": 4}"#) == .noLabels)
    }

    @Test func rejectsAnUnknownLabel() {
        #expect(problem(#"{"labels": ["1", "sin"], "columnCount": 4}"#)
            == .unknownLabel("sin", knownLabels: CommandFactory.standard.labels))
    }

    @Test func errorMessagesNameTheFileAndTheProblemOnOneLine() {
        let cases: [(String, String)] = [
            ("{", "not valid JSON"),
            (#"{"labels": ["1"], "columnCount": 0}"#, "\"columnCount\" must be at least 1, got 0"),
            (#"{"labels": ["1", ""], "columnCount": 1}"#, "label 2 is empty"),
            (#"{"labels": ["sin"], "columnCount": 1}"#, "unknown label \"sin\"; known labels: 0 1 2"),
        ]
        for (json, expected) in cases {
            do {
                _ = try decode(json, source: "/tmp/keys.json")
                Issue.record("accepted \(json)")
            } catch {
                #expect(error.description.hasPrefix("Invalid button configuration /tmp/keys.json: \(expected)"))
                #expect(!error.description.contains("\n"))
            }
        }
    }

    @Test func loadingAMissingFileNamesIt() {
        let url = URL(fileURLWithPath: "/nonexistent/keys.json")
        #expect(throws: ConfigurationError(source: "/nonexistent/keys.json", problem: .unreadable(reason: "no such file"))) {
            try ButtonConfiguration.load(contentsOf: url)
        }
    }

    @Test func loadingAFolderSaysItIsOne() {
        let folder = FileManager.default.temporaryDirectory
        let expected = ConfigurationError(
            source: folder.path, problem: .unreadable(reason: "it is a folder; give a keypad file, such as keypad.json"))
        #expect(throws: expected) { try ButtonConfiguration.load(contentsOf: folder) }
    }

    @Test func aLabelMayBeAnAlias() throws {
        let configuration = try decode(#"{"labels": ["1", "*", "="], "columnCount": 3}"#)
        var session = CalculatorSession(configuration: configuration)
        try session.press(["1", "*", "1", "="])
        #expect(session.display == "1")
    }
}
