import Foundation
import Testing
import TodoStore
import Todos
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
            #expect(TypedText.visible("Buy milk – 2 €, “today”") == "Buy milk – 2 €, “today”")
        }

        @Test func controlsBecomeCaretNotationOrCodePoints() {
            #expect(TypedText.visible(TodoControlCharacterTests.hostileTitle) == TodoControlCharacterTests.visibleTitle)
            #expect(TypedText.visible("a\u{0}b\u{85}c") == "a^@b<U+0085>c")
        }

        @Test func directionControlsBecomeCodePoints() {
            #expect(TypedText.visible("Pay \u{202E}tner\u{202C} now \u{2067}x\u{2069}") == "Pay <U+202E>tner<U+202C> now <U+2067>x<U+2069>")
        }

        @Test func wideCharactersTakeTwoCellsOfATableColumn() {
            #expect(ItemText.cells("Buy milk") == 8)
            #expect(ItemText.cells("牛乳を買う") == 10)
            #expect(ItemText.cells("Café") == 4)
            #expect(ItemText.cells("Cafe\u{301} 🥛") == 7)
        }

        @Test func lineBreaksAndTabsBecomeSpacesOnOneLine() {
            #expect(TypedText.visible("one\ntwo\r\nthree\tfour") == "one two three four")
        }

        @Test func lineBreaksStayWhereSeveralLinesAreShown() {
            #expect(TypedText.visible("one\ntwo\r\nthree\rfour\tfive", keepingLineBreaks: true) == "one\ntwo\nthree^Mfour\tfive")
        }
    }

    /// A data directory holding one item with a hostile title and details,
    /// written by the store itself: new input may no longer hold such
    /// characters (``TypedText``), but a database saved before that rule may.
    static func hostileDirectory() async throws -> TodoDirectory {
        let item = try TodoItem(
            restoring: UUID(uuidString: "ABCD1234-0000-4000-8000-000000000001") ?? UUID(), title: hostileTitle,
            details: "line one\r\nline two\u{1B}[2J", state: .active, due: .unknown, location: .unknown,
            created: Date(timeIntervalSince1970: 1_767_261_600), changed: Date(timeIntervalSince1970: 1_767_261_600))
        return try await savedDirectory([.todos(.add(item))], named: "Add “\(hostileTitle)”")
    }

    /// A data directory whose database holds one step of `changes`, saved
    /// past the use cases' check of typed text.
    static func savedDirectory(_ changes: [AppState.Change], named name: String) async throws -> TodoDirectory {
        let directory = try TodoDirectory()
        let data = DataDirectory(url: directory.url)
        try data.create()
        let store = try SQLiteStore(url: data.databaseURL, pollInterval: nil)
        try await store.change(changes, named: name)
        return directory
    }

    @Test func newTextWithAControlCharacterIsRefusedWithStatus64AndTheCharacterNamedVisibly() async throws {
        let directory = try TodoDirectory()
        for arguments in [["add", "Clear\u{1B}[2Jscreen"], ["add", "Milk", "--details", "a\u{07}b"], ["add", "Milk", "--step", "left\u{9B}"]] {
            let run = try await directory.run(arguments)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("The control character U+"), "\(run.stderr)")
            #expect(!Self.actsOnTerminal(run.stderr))
        }
        let document = #"{"format":"rewind-todos","version":2,"items":[{"id":"ABCD1234-0000-4000-8000-000000000001","title":"Milk","created":"2026-01-01T10:00:00.000Z"},{"id":"ABCD1234-0000-4000-8000-000000000002","title":"Bell\u0007","created":"2026-01-01T10:00:00.000Z"}]}"#
        let imported = try await directory.run(["import", "-"], stdin: document)
        #expect(imported.status == 64, "\(imported.stderr)")
        #expect(imported.stderr.contains("items[1]: The control character U+0007 is not allowed in the title"), "\(imported.stderr)")
        #expect(!Self.actsOnTerminal(imported.stderr))
        let listed = try await TodoDirectory.object(try directory.succeed(["list", "--json"]).stdout)["items"] as? [Any]
        #expect(listed?.isEmpty == true)
    }

    @Test func listShowsThemVisibly() async throws {
        let run = try await Self.hostileDirectory().succeed(["list"])
        #expect(!Self.actsOnTerminal(run.stdout))
        #expect(run.stdout.contains(Self.visibleTitle))
    }

    @Test func showShowsThemVisiblyAndKeepsTheLinesOfDetails() async throws {
        let run = try await Self.hostileDirectory().succeed(["show", "abcd"])
        #expect(!Self.actsOnTerminal(run.stdout))
        #expect(run.lines.first == Self.visibleTitle)
        #expect(run.stdout.contains("line one\n           line two^[[2J"))
    }

    @Test func historyShowsStepNamesVisibly() async throws {
        let run = try await Self.hostileDirectory().succeed(["history"])
        #expect(!Self.actsOnTerminal(run.stdout))
        #expect(run.stdout.contains(Self.visibleTitle))
    }

    @Test func undoAndRedoSayTheTitleVisibly() async throws {
        let directory = try await Self.hostileDirectory()
        let undone = try await directory.succeed(["undo"])
        #expect(!Self.actsOnTerminal(undone.stdout))
        #expect(undone.stdout.contains(Self.visibleTitle), "\(undone.stdout)")
        let redone = try await directory.succeed(["redo"])
        #expect(!Self.actsOnTerminal(redone.stdout))
        #expect(redone.stdout.contains(Self.visibleTitle), "\(redone.stdout)")
    }

    @Test func jsonKeepsTheCharactersEscaped() async throws {
        let run = try await Self.hostileDirectory().succeed(["list", "--json"])
        #expect(!run.stdout.contains("\u{1B}"))
        let items = try TodoDirectory.object(run.stdout)["items"] as? [[String: Any]]
        #expect(items?.first?["title"] as? String == Self.hostileTitle)
    }
}
