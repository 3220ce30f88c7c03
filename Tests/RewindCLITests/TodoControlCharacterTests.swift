import Foundation
import Testing
@testable import RewindCLI

/// Stored text never acts on the terminal: control characters in titles,
/// details and step names are printed as visible text, `--json` keeps them.
@Suite("Control characters in terminal output")
struct TodoControlCharacterTests {
    /// A title that would set the window title, ring the bell, return to the
    /// start of the line, and start a C1 control sequence.
    static let hostileTitle = "Pay\u{1B}]0;pwned\u{07}\rrent\u{9B}2J\u{7F}"
    static let visibleTitle = "Pay^[]0;pwned^G^Mrent<U+009B>2J^?"

    /// Whether `text` holds a character that would act on a terminal (other than a line break).
    static func actsOnTerminal(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    @Suite("visible text")
    struct Visible {
        @Test func plainTextIsLeftAsItIs() {
            #expect(TodoTerminal.visible("Buy milk – 2 €, “today”") == "Buy milk – 2 €, “today”")
        }

        @Test func controlsBecomeCaretNotationOrCodePoints() {
            #expect(TodoTerminal.visible(TodoControlCharacterTests.hostileTitle) == TodoControlCharacterTests.visibleTitle)
            #expect(TodoTerminal.visible("a\u{0}b\u{85}c") == "a^@b<U+0085>c")
        }

        @Test func lineBreaksAndTabsBecomeSpacesOnOneLine() {
            #expect(TodoTerminal.visible("one\ntwo\r\nthree\tfour") == "one two three four")
        }

        @Test func lineBreaksStayWhereSeveralLinesAreShown() {
            #expect(TodoTerminal.visible("one\ntwo\r\nthree\rfour\tfive", keepingLineBreaks: true) == "one\ntwo\nthree^Mfour\tfive")
        }
    }

    /// A data directory holding one item with a hostile title and details, imported.
    static func hostileDirectory() throws -> TodoDirectory {
        let directory = try TodoDirectory()
        let title = #"Pay\u001b]0;pwned\u0007\rrent\u009b2J\u007f"#
        let document = #"{"format":"rewind-todos","version":2,"items":[{"id":"ABCD1234-0000-4000-8000-000000000001","title":"\#(title)","details":"line one\r\nline two\u001b[2J","state":"active","created":"2026-01-01T10:00:00.000Z"}]}"#
        let run = try directory.run(["import", "-"], stdin: document)
        #expect(run.status == 0, "\(run.stderr)")
        return directory
    }

    @Test func listShowsThemVisibly() throws {
        let run = try Self.hostileDirectory().succeed(["list"])
        #expect(!Self.actsOnTerminal(run.stdout))
        #expect(run.stdout.contains(Self.visibleTitle))
    }

    @Test func showShowsThemVisiblyAndKeepsTheLinesOfDetails() throws {
        let run = try Self.hostileDirectory().succeed(["show", "abcd"])
        #expect(!Self.actsOnTerminal(run.stdout))
        #expect(run.lines.first == Self.visibleTitle)
        #expect(run.stdout.contains("line one\n           line two^[[2J"))
    }

    @Test func historyShowsStepNamesVisibly() throws {
        let directory = try TodoDirectory()
        try directory.add("Ring\u{07}the bell")
        let run = try directory.succeed(["history"])
        #expect(!Self.actsOnTerminal(run.stdout))
        #expect(run.stdout.contains("Ring^Gthe bell"))
    }

    @Test func addAndUndoSayTheTitleVisibly() throws {
        let directory = try TodoDirectory()
        let added = try directory.succeed(["add", "Clear\u{1B}[2Jscreen"])
        #expect(!Self.actsOnTerminal(added.stdout))
        #expect(added.stdout.contains("“Clear^[[2Jscreen”"))
        let undone = try directory.succeed(["undo"])
        #expect(!Self.actsOnTerminal(undone.stdout))
    }

    @Test func jsonKeepsTheCharactersEscaped() throws {
        let run = try Self.hostileDirectory().succeed(["list", "--json"])
        #expect(!run.stdout.contains("\u{1B}"))
        let items = try TodoDirectory.object(run.stdout)["items"] as? [[String: Any]]
        #expect(items?.first?["title"] as? String == Self.hostileTitle)
    }
}
