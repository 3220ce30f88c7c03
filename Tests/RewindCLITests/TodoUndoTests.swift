import Foundation
import Testing
@testable import RewindCLI

@Suite("rewind todo undo and redo")
struct TodoUndoTests {
    /// A list of two items, numbered by a listing: 1 “Buy milk” (due, with
    /// an address), 2 “Call Anna” (completed).
    static func twoItems() async throws -> TodoDirectory {
        let directory = try TodoDirectory()
        try await directory.add("Buy milk", ["--due", "2030-01-15", "--address", "1 Main St, Springfield"])
        let anna = try await directory.add("Call Anna")
        try await directory.succeed(["done", anna])
        _ = try await directory.items()
        return directory
    }

    static let changes: [(command: [String], step: String)] = [
        (["add", "Walk the dog"], "Add “Walk the dog”"),
        (["edit", "1", "--title", "Buy oat milk"], "Rename “Buy milk” to “Buy oat milk”"),
        (["edit", "1", "--details", "Two litres"], "Edit details of “Buy milk”"),
        (["edit", "1", "--due", "2031-02-03 09:00"], "Set due date of “Buy milk”"),
        (["edit", "1", "--due", "none"], "Clear due date of “Buy milk”"),
        (["edit", "1", "--address", "2 High St, Shelbyville, 54321, US"], "Set location of “Buy milk”"),
        (["edit", "1", "--coordinate", "53.93,9.1"], "Set location of “Buy milk”"),
        (["edit", "1", "--step", "Out of the door", "--step", "Left"], "Set location of “Buy milk”"),
        (["edit", "1", "--no-location"], "Clear location of “Buy milk”"),
        (["edit", "1", "--title", "Milk", "--due", "none"], "Edit “Buy milk”"),
        (["done", "1"], "Complete “Buy milk”"),
        (["undone", "2"], "Reopen “Call Anna”"),
        (["done", "1", "2"], "Complete “Buy milk”"),
        (["rm", "1"], "Delete “Buy milk”"),
        (["rm", "1", "2"], "Delete 2 items"),
        (["clear-completed"], "Clear 1 completed item"),
    ]

    @Test(arguments: changes)
    func eachChangeIsUndoneAndRedoneByLaterProcesses(command: [String], step: String) async throws {
        let directory = try await Self.twoItems()
        let before = try await directory.export()
        try await directory.succeed(command)
        let after = try await directory.export()
        #expect(after != before)

        let undo = try await directory.succeed(["undo"])
        #expect(undo.stdout == "Undid: \(step)\n")
        #expect(try await directory.export() == before)

        let redo = try await directory.succeed(["redo"])
        #expect(redo.stdout == "Redid: \(step)\n")
        #expect(try await directory.export() == after)
    }

    @Test func editChangesEveryField() async throws {
        let directory = try await Self.twoItems()
        try await directory.succeed(["edit", "1", "--title", "Buy oat milk", "--details", "Two\nlitres", "--due", "2031-02-03 09:00", "--coordinate", "53.93,9.1"])
        let item = try #require(try await directory.items().first)
        #expect(item["title"] as? String == "Buy oat milk")
        #expect(item["details"] as? String == "Two\nlitres")
        #expect((item["due"] as? [String: Any])?["date"] as? String == "2031-02-03T09:00:00.000Z")
        #expect((item["location"] as? [String: Any])?["latitude"] as? Double == 53.93)
        try await directory.succeed(["edit", "1", "--step", "Out of the door", "--due", "none", "--details", ""])
        let stepped = try #require(try await directory.items().first)
        #expect((stepped["location"] as? [String: Any])?["steps"] as? [String] == ["Out of the door"])
        #expect((stepped["due"] as? [String: Any])?["kind"] as? String == "unknown")
        #expect(stepped["details"] as? String == "")
        try await directory.succeed(["edit", "1", "--no-location"])
        #expect((try await directory.items().first?["location"] as? [String: Any])?["kind"] as? String == "unknown")
    }

    @Test func undoAndRedoTakeANumberOfSteps() async throws {
        let directory = try TodoDirectory()
        for title in ["One", "Two", "Three"] { try await directory.add(title) }
        #expect(try await directory.succeed(["undo", "2"]).lines == ["Undid: Add “Three”", "Undid: Add “Two”"])
        #expect(try await directory.titles() == ["One"])
        #expect(try await directory.succeed(["redo", "5"]).lines == ["Redid: Add “Two”", "Redid: Add “Three”", "Nothing more to redo."])
        #expect(try await directory.titles() == ["One", "Two", "Three"])
    }

    @Test func undoWithNothingToUndoSaysSoAndSucceeds() async throws {
        let directory = try TodoDirectory()
        let run = try await directory.succeed(["undo"])
        #expect(run.stdout == "Nothing to undo.\n")
        #expect(try await directory.succeed(["redo"]).stdout == "Nothing to redo.\n")
    }

    @Test func undoJSONNamesTheStepsAndThePosition() async throws {
        let directory = try TodoDirectory()
        try await directory.add("One")
        let json = try await TodoDirectory.object(try directory.succeed(["undo", "--json"]).stdout)
        #expect(json["undone"] as? [String] == ["Add “One”"])
        #expect(json["position"] as? Int == 0)
    }

    @Test func aNewChangeAfterUndoClearsTheRedoSteps() async throws {
        let directory = try TodoDirectory()
        try await directory.add("One")
        try await directory.succeed(["undo"])
        try await directory.add("Two")
        #expect(try await directory.succeed(["redo"]).stdout == "Nothing to redo.\n")
    }

    @Suite("History")
    struct HistoryTests {
        @Test func historyNumbersTheStepsAndMarksThePosition() async throws {
            let directory = try TodoDirectory()
            try await directory.add("One")
            try await directory.add("Two")
            try await directory.succeed(["undo"])
            let lines = try await directory.succeed(["history"]).lines
            #expect(lines.count == 3)
            #expect(lines[0] == "  0  Start")
            #expect(lines[1].hasPrefix("→ 1  Add “One”  "))
            #expect(lines[2].hasPrefix("  2  Add “Two”  "))
            #expect(lines[2].hasSuffix("  (undone)"))
        }

        @Test func historyJSONListsStepsWithDates() async throws {
            let directory = try TodoDirectory()
            try await directory.add("One")
            let json = try await TodoDirectory.object(try directory.succeed(["history", "--json"]).stdout)
            #expect(json["position"] as? Int == 1)
            let step = try #require((json["steps"] as? [[String: Any]])?.first)
            #expect(step["number"] as? Int == 1)
            #expect(step["name"] as? String == "Add “One”")
            #expect(step["done"] as? Bool == true)
            #expect((step["date"] as? String)?.hasSuffix("Z") == true)
        }

        @Test func jumpMovesBackAndForwardInOneGo() async throws {
            let directory = try TodoDirectory()
            for title in ["One", "Two", "Three"] { try await directory.add(title) }
            #expect(try await directory.succeed(["history", "jump", "1"]).stdout == "At step 1: Add “One”\n")
            #expect(try await directory.titles() == ["One"])
            #expect(try await directory.succeed(["history", "jump", "3"]).stdout == "At step 3: Add “Three”\n")
            #expect(try await directory.titles() == ["One", "Two", "Three"])
            #expect(try await directory.succeed(["history", "jump", "0"]).stdout == "At the start\n")
            #expect(try await directory.titles().isEmpty)
            let history = try await directory.succeed(["history"]).lines
            #expect(history.first == "→ 0  Start")
        }

        @Test func aLongHistoryIsShownAPageAtATime() async throws {
            let directory = try TodoDirectory()
            for title in ["One", "Two", "Three", "Four", "Five", "Six"] { try await directory.add(title) }
            try await directory.succeed(["undo"])
            try await directory.succeed(["undo"])
            // The steps around where the list is (at 4), with where the other pages start.
            let around = try await directory.succeed(["history", "--limit", "3"]).lines
            #expect(around.count == 5)
            #expect(around[0] == "  … 2 earlier: rewind todo history --limit 3 --before 3\(directory.again)")
            #expect(around[1].hasPrefix("  3  Add “Three”"))
            #expect(around[2].hasPrefix("→ 4  Add “Four”"))
            #expect(around[3].hasPrefix("  5  Add “Five”") && around[3].hasSuffix("(undone)"))
            #expect(around[4] == "  … 1 later: rewind todo history --limit 3 --after 5\(directory.again)")
            let before = try await directory.succeed(["history", "--limit", "3", "--before", "3"]).lines
            #expect(before.count == 4)
            #expect(before[0] == "  0  Start")
            #expect(before[1].hasPrefix("  1  Add “One”"))
            #expect(before[2].hasPrefix("  2  Add “Two”"))
            #expect(before[3] == "  … 4 later: rewind todo history --limit 3 --after 2\(directory.again)")
            let between = try await directory.succeed(["history", "--after", "1", "--before", "4"]).lines
            #expect(between.count == 4)
            #expect(between[0] == "  … 1 earlier: rewind todo history --limit 20 --before 2\(directory.again)")
            #expect(between[1].hasPrefix("  2  Add “Two”") && between[2].hasPrefix("  3  Add “Three”"))
            #expect(between[3] == "  … 3 later: rewind todo history --limit 20 --after 3\(directory.again)")
            let after = try await directory.succeed(["history", "--after", "5"]).lines
            #expect(after.count == 2)
            #expect(after[0] == "  … 5 earlier: rewind todo history --limit 20 --before 6\(directory.again)")
            #expect(after[1].hasPrefix("  6  Add “Six”") && after[1].hasSuffix("(undone)"))
            let json = try await TodoDirectory.object(try directory.succeed(["history", "--limit", "2", "--json"]).stdout)
            #expect(json["total"] as? Int == 6)
            #expect(json["position"] as? Int == 4)
            #expect((json["steps"] as? [[String: Any]])?.compactMap { $0["number"] as? Int } == [4, 5])
            // Without a page option, every step, as before.
            #expect(try await directory.succeed(["history"]).lines.count == 7)
        }

        @Test func aPageOptionOutsideWhatIsAllowedExits64SayingWhat() async throws {
            let directory = try TodoDirectory()
            try await directory.add("One")
            for (arguments, message) in [
                (["--limit", "0"], "--limit takes 1 to 500 steps a page; 0 is not"),
                (["--limit", "501"], "--limit takes 1 to 500 steps a page; 501 is not"),
                (["--before", "0"], "--before takes a step number of 1 or more (0 is the start); 0 is not"),
                (["--after=-1"], "--after takes a step number of 0 (the start) or more; -1 is not"),
                (["--after", "5", "--before", "2"], "--before must be above --after: the steps between them are listed, and none lies between 5 and 2"),
                (["--all", "--limit", "5"], "--all lists every change of the tree: page the history without --all"),
            ] {
                let run = try await directory.run(["history"] + arguments)
                #expect(run.status == 64, "\(arguments)")
                #expect(run.stderr.hasPrefix("rewind todo: " + message), "\(arguments): \(run.stderr)")
            }
        }

        @Test func jumpToAStepThatDoesNotExistFailsAndChangesNothing() async throws {
            let directory = try TodoDirectory()
            try await directory.add("One")
            let run = try await directory.run(["history", "jump", "5"])
            #expect(run.status == 1)
            #expect(run.stderr == "rewind todo: there is no step 5: the history has steps 0 (the start) to 1\n")
            #expect(try await directory.titles() == ["One"])
        }
    }

    @Suite("Export and import")
    struct ExportAndImport {
        @Test func exportThenImportIntoAnEmptyDirectoryGivesTheSameState() async throws {
            let source = try await TodoUndoTests.twoItems()
            try await source.add("Hut", ["--step", "Gate", "--step", "Right", "--details", "Bring boots"])
            let file = source.url.appendingPathComponent("export.json").path
            #expect(try await source.succeed(["export", file]).stdout == "Exported 3 items to \(file)\n")

            let copy = try TodoDirectory()
            let run = try await copy.succeed(["import", file])
            #expect(run.stdout == "Imported 3 items from \(file), replacing the list (undo with: rewind todo undo\(copy.again))\n")
            #expect(try await copy.export() == (try source.export()))
            let again = try await copy.succeed(["import", file])
            #expect(again.stderr == "Nothing to change: the list already holds these 3 items as they are.\n")
            #expect(try await copy.succeed(["undo"]).stdout == "Undid: Import 3 items\n")
            #expect(try await copy.titles().isEmpty)
            // Items of the list that the document lacks go, and are counted.
            try await copy.add("Extra")
            #expect(try await copy.succeed(["import", file]).stdout
                == "Imported 3 items from \(file), replacing the list; 1 item not in it removed (undo with: rewind todo undo\(copy.again))\n")
            #expect(try await copy.succeed(["undo"]).stdout == "Undid: Import 3 items\n")
            let folder = try await copy.run(["import", source.url.path])
            #expect(folder.status == 1)
            #expect(folder.stderr == "rewind todo: cannot read \(source.url.path): it is a folder; give a to-do document, such as a file `rewind todo export` wrote\n")
        }

        @Test func theSuggestedUndoActsOnTheDataTheImportWent() async throws {
            let directory = try TodoDirectory()
            let document = todoDocument([("00000000-0000-4000-8000-000000000001", "Only")])
            // Chosen by the environment: the suggestion needs no option.
            let run = try await runRewind(["todo", "import", "-"], stdin: document, environment: ["REWIND_DATA_DIR": directory.url.path])
            #expect(run.stdout == "Imported 1 item from -, replacing the list (undo with: rewind todo undo)\n")
            // Chosen on the command line: the suggestion repeats it, quoted for a shell.
            #expect(try TodoOptions.parse(["--data-dir", "/tmp/my lists/it's"]).repeated == #" --data-dir '/tmp/my lists/it'\''s'"#)
            // A database URL is repeated without its password, which is to be filled in.
            #expect(try TodoOptions.parse(["--database", "postgres://ann:secret@db.example:5432/todos"]).repeated
                == " --database postgres://ann:PASSWORD@db.example:5432/todos")
            #expect(try TodoOptions.parse(["--database", "postgres://ann@db.example/todos"]).repeated
                == " --database postgres://ann@db.example/todos")
        }

        @Test func importFromStandardInputReplacesTheList() async throws {
            let directory = try await TodoUndoTests.twoItems()
            let document = todoDocument([("00000000-0000-4000-8000-000000000001", "Only")])
            #expect(try await directory.run(["import", "-"], stdin: document).status == 0)
            #expect(try await directory.titles() == ["Only"])
        }

        @Test func importMergeReplacesKnownIdsAndAppendsNewOnes() async throws {
            let directory = try TodoDirectory()
            let first = todoDocument([("00000000-0000-4000-8000-000000000001", "One"), ("00000000-0000-4000-8000-000000000002", "Two")])
            try await directory.run(["import", "-"], stdin: first)
            let second = todoDocument([("00000000-0000-4000-8000-000000000002", "Two, renamed"), ("00000000-0000-4000-8000-000000000003", "Three")])
            let run = try await directory.run(["import", "-", "--merge"], stdin: second)
            #expect(run.status == 0)
            #expect(run.stdout == "Imported 2 items from -, merged into the list (undo with: rewind todo undo\(directory.again))\n")
            #expect(try await directory.titles() == ["One", "Two, renamed", "Three"])
            try await directory.succeed(["undo"])
            #expect(try await directory.titles() == ["One", "Two"])
        }
    }
}
