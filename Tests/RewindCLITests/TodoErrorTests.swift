import Foundation
import Testing

/// Every error: exit status, one line on standard error naming what was
/// wrong and what is allowed, nothing on standard output, data unchanged.
@Suite("rewind todo errors")
struct TodoErrorTests {
    /// Runs `arguments` on a list of one item and checks the error and that nothing changed.
    static func expectFailure(
        _ arguments: [String], status: Int32, stderr expected: String, stdin: String? = nil,
        in directory: TodoDirectory? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let given = directory
        let directory: TodoDirectory
        if let given {
            directory = given
        } else {
            directory = try TodoDirectory()
            try await directory.add("Buy milk")
            _ = try await directory.items()
        }
        let before = try await directory.export()
        let history = try await directory.succeed(["history", "--json"]).stdout
        let run = try await directory.run(arguments, stdin: stdin)
        #expect(run.status == status, sourceLocation: sourceLocation)
        #expect(run.stderr == "rewind todo: " + expected + "\n", sourceLocation: sourceLocation)
        #expect(run.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(try await directory.export() == before, "the items changed", sourceLocation: sourceLocation)
        #expect(try await directory.succeed(["history", "--json"]).stdout == history, "the history changed", sourceLocation: sourceLocation)
    }

    static let hint = "use the number from the last `rewind todo list` or the start of an item's id (at least 4 hex digits)"

    @Test func anUnknownReference() async throws {
        try await Self.expectFailure(["done", "zz9"], status: 1, stderr: "no item matches “zz9”; \(Self.hint)")
        try await Self.expectFailure(["rm", "beef"], status: 1, stderr: "no item matches “beef”; \(Self.hint)")
        try await Self.expectFailure(["show", "7"], status: 1, stderr: "no item matches “7”: the last list had 1 item; \(Self.hint)")
    }

    @Test func aNumberBeforeAnyList() async throws {
        let directory = try TodoDirectory()
        try await directory.add("Buy milk")
        try await Self.expectFailure(
            ["done", "1"], status: 1,
            stderr: "no item matches “1”: no list has been shown yet; run `rewind todo list` first, or use the start of an item's id (at least 4 hex digits)",
            in: directory)
    }

    @Test func oneBadReferenceAmongGoodOnesChangesNothing() async throws {
        try await Self.expectFailure(["done", "1", "zz9"], status: 1, stderr: "no item matches “zz9”; \(Self.hint)")
    }

    @Test func anAmbiguousPrefix() async throws {
        let directory = try TodoDirectory()
        let document = todoDocument([
            ("ABCD1234-0000-4000-8000-000000000001", "Alpha"), ("ABCD5678-0000-4000-8000-000000000002", "Beta"),
        ])
        #expect(try await directory.run(["import", "-"], stdin: document).status == 0)
        try await Self.expectFailure(
            ["rm", "abcd"], status: 1,
            stderr: "“abcd” is ambiguous: it matches abcd12340000, abcd56780000; type more of the id", in: directory)
        try await directory.succeed(["rm", "abcd5"])
        #expect(try await directory.titles() == ["Alpha"])
    }

    @Test func shortReferencesGrowWhereTwoIdsShareTheirStart() async throws {
        let directory = try TodoDirectory()
        let document = todoDocument([
            ("ABCD1234-0000-4000-8000-000000000001", "Alpha"), ("ABCD1234-5000-4000-8000-000000000002", "Beta"),
        ])
        #expect(try await directory.run(["import", "-"], stdin: document).status == 0)
        #expect(try await directory.items().compactMap { $0["ref"] as? String } == ["abcd12340", "abcd12345"])
    }

    @Test func aBadDueDate() async throws {
        let forms = "Accepted forms: today, tomorrow, yesterday, a weekday such as fri or friday (the next one after today), in 3 days, in 2 weeks, in 4 hours, in 30 minutes, 2026-12-01, 2026-12-01 14:30, fri 14:30, fri 2:30pm, tomorrow at 9am, 17:00 or 5pm (today), 2026-12-01..2026-12-03, 2026-12-01 09:00..2026-12-01 17:00, 2026-12-01.. (no end yet), 2026-12-01 for 3 days, 2026-12-01 14:00 for 2 hours, none."
        try await Self.expectFailure(
            ["add", "Call Anna", "--due", "someday"], status: 64,
            stderr: "“someday” is not a due date: “someday” is neither a known word nor a date like 2026-12-01. \(forms)")
        try await Self.expectFailure(
            ["edit", "1", "--due", "2026-02-30"], status: 64,
            stderr: "“2026-02-30” is not a due date: 2026-02-30 is not a day of the calendar. \(forms)")
        // An empty value (a variable that was not set) clears nothing.
        for empty in ["", "  "] {
            try await Self.expectFailure(
                ["edit", "1", "--due", empty], status: 64,
                stderr: "--due needs a date, such as tomorrow, fri 14:30 or 2026-12-01; --due none removes one")
        }
    }

    @Test func aBadCoordinate() async throws {
        try await Self.expectFailure(
            ["add", "Picnic", "--coordinate", "north"], status: 64,
            stderr: "“north” is not a coordinate: write LAT,LON in degrees, such as 53.93,9.10")
        try await Self.expectFailure(
            ["edit", "1", "--coordinate", "91,10"], status: 64,
            stderr: "A latitude must lie between -90 and 90; 91.0 does not.")
        try await Self.expectFailure(
            ["edit", "1", "--coordinate", "10,-181"], status: 64,
            stderr: "A longitude must lie between -180 and 180; -181.0 does not.")
    }

    @Test func anEmptyTitle() async throws {
        try await Self.expectFailure(["add", ""], status: 64, stderr: "A title must not be empty.")
        try await Self.expectFailure(["add", "   "], status: 64, stderr: "A title must not be empty.")
        try await Self.expectFailure(["edit", "1", "--title", " "], status: 64, stderr: "A title must not be empty.")
    }

    @Test func badLocations() async throws {
        try await Self.expectFailure(
            ["add", "Post", "--address", " , , , "], status: 64,
            stderr: "An address needs at least one of street, city, zip code or country.")
        try await Self.expectFailure(
            ["add", "Post", "--address", "a, b, c, d, e"], status: 64,
            stderr: "“a, b, c, d, e” has 5 fields; an address is \"street, city, zip, country\" (at most 4 fields, separated by commas)")
        try await Self.expectFailure(
            ["add", "Hut", "--step", "Gate", "--step", " "], status: 64,
            stderr: "Step 2 of the directions is empty; every step needs text.")
        try await Self.expectFailure(
            ["add", "Post", "--address", "1 Main St", "--coordinate", "1,2"], status: 64,
            stderr: "give one location: --address, --coordinate or --step, not several")
        try await Self.expectFailure(
            ["edit", "1", "--address", "1 Main St", "--no-location"], status: 64,
            stderr: "give either a location or --no-location, not both")
    }

    @Test func anEditWithoutChanges() async throws {
        try await Self.expectFailure(
            ["edit", "1"], status: 64,
            stderr: "nothing to change: give --title, --details, --due, --address, --coordinate, --step or --no-location")
    }

    @Test func aMalformedImportNamesTheBadField() async throws {
        let document = #"{"format":"rewind-todos","version":1,"items":[{"id":"00000000-0000-4000-8000-000000000001","title":"A","created":"yesterday"}]}"#
        try await Self.expectFailure(
            ["import", "-"], status: 64,
            stderr: "- is not a to-do document: items[0].created: expected an ISO-8601 date like 2026-12-01T09:30:00.000Z",
            stdin: document)
        // A field the format does not have would be lost without a word:
        // `"completed": true` is not how an item says it is completed.
        let completed = #"{"format":"rewind-todos","version":2,"items":[{"id":"00000000-0000-4000-8000-000000000001","title":"A","created":"2026-01-01T00:00:00.000Z","completed":true}]}"#
        try await Self.expectFailure(
            ["import", "-"], status: 64,
            stderr: "- is not a to-do document: items[0].completed: unknown field; the allowed fields are id, title, details, state, due, location, created, changed",
            stdin: completed)
        try await Self.expectFailure(
            ["import", "--merge", "-"], status: 64,
            stderr: "- is not a to-do document: list: unknown field; the allowed fields are format, version, items",
            stdin: #"{"format":"rewind-todos","version":2,"list":"Groceries","items":[]}"#)
        for empty in ["", " \n"] {
            try await Self.expectFailure(
                ["import", "-"], status: 64,
                stderr: "standard input is empty: give a document that `rewind todo export` wrote; nothing was changed", stdin: empty)
        }
        try await Self.expectFailure(
            ["import", "/nonexistent/todos.json"], status: 1,
            stderr: "cannot read /nonexistent/todos.json: there is no such file")
    }

    @Test func anEmptyFileNameIsRefusedAsSuch() async throws {
        // It named the working directory ("… is a directory, not a regular file").
        try await Self.expectFailure(
            ["export", ""], status: 64, stderr: "the file name is empty; give one, or - (or none) for standard output; nothing was written")
        try await Self.expectFailure(
            ["import", ""], status: 64, stderr: "the file name is empty; give one, or - for standard input; nothing was imported")
    }

    @Test func aStepCountBelowOne() async throws {
        try await Self.expectFailure(["undo", "0"], status: 64, stderr: "the number of steps must be 1 or more; 0 is not")
        // A negative number is the count, not an unknown option.
        try await Self.expectFailure(["undo", "-1"], status: 64, stderr: "the number of steps must be 1 or more; -1 is not")
        try await Self.expectFailure(["redo", "--json", "-12"], status: 64, stderr: "the number of steps must be 1 or more; -12 is not")
        // With the data directory named before the command, as the help allows.
        let directory = try TodoDirectory()
        let leading = try await runRewind(["todo", "--data-dir", directory.url.path, "undo", "-1"])
        #expect(leading.status == 64)
        #expect(leading.stderr == "rewind todo: the number of steps must be 1 or more; -1 is not\n")
        // A step of the history too (it said "Missing expected argument '<n>'"): a wrong command line, as undo's.
        try await Self.expectFailure(["history", "jump", "-1"], status: 64, stderr: "steps are numbered from 0 (the start); -1 names none")
        // And an item's number: named as no item (it said "Missing expected argument").
        for command in ["done", "rm", "show"] {
            try await Self.expectFailure(
                [command, "-1"], status: 1,
                stderr: "no item matches “-1”; use the number from the last `rewind todo list` or the start of an item's id (at least 4 hex digits)")
        }
    }

    @Test func aTitleWordThatIsANegativeNumberIsPartOfTheTitle() async throws {
        let directory = try TodoDirectory()
        var run = try await directory.run(["add", "-5", "degrees", "tonight", "--due", "tomorrow", "--details", "-2 by morning"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("“-5 degrees tonight”, due tomorrow"))
        run = try await directory.run(["add", "Water", "-1", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""title" : "Water -1""#))
        run = try await directory.run(["list", "--json"])
        #expect(run.stdout.contains(#""details" : "-2 by morning""#))
        // A quoted title that starts with a dash (the parser read it as
        // short options, `-h` among them, and showed the help).
        run = try await directory.run(["add", "- call the plumber", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""title" : "- call the plumber""#), "\(run.stdout)")
        // Other words that look like options are still refused as such.
        run = try await directory.run(["add", "Water", "-x"])
        #expect(run.status == 64)
    }

    @Test func aNegativePageOptionSaysWhatIsAllowed() async throws {
        try await Self.expectFailure(
            ["history", "--after", "-1"], status: 64, stderr: "--after takes a step number of 0 (the start) or more; -1 is not")
        try await Self.expectFailure(["history", "--limit", "-5"], status: 64, stderr: "--limit takes 1 to 500 steps a page; -5 is not")
    }

    @Test func aDataDirectoryThatIsAFile() async throws {
        let directory = try TodoDirectory()
        let file = directory.url.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let run = try await runRewind(["todo", "list", "--data-dir", file.path])
        #expect(run.status == 1)
        #expect(run.stderr == "rewind todo: Cannot create the data directory \(file.path): a file of that name is in the way.\n")
        // A file further up is named as such, not with Foundation's sentence.
        let below = file.appendingPathComponent("rewind")
        let deeper = try await runRewind(["todo", "list", "--data-dir", below.path])
        #expect(deeper.stderr == "rewind todo: Cannot create the data directory \(below.path): \(file.path) is a file, not a folder.\n")
    }

    @Test func anExportIntoAFolderThatDoesNotExistNamesTheFolder() async throws {
        let directory = try TodoDirectory()
        try await directory.add("Buy milk")
        let missing = directory.url.appendingPathComponent("missing")
        let run = try await directory.run(["export", missing.appendingPathComponent("list.json").path])
        #expect(run.status == 1)
        #expect(run.stderr.hasSuffix(": the folder \(missing.path) does not exist.\n"), "\(run.stderr)")
    }

    @Test func aDatabaseThatIsNotRewindsIsLeftAsItIs() async throws {
        let directory = try TodoDirectory()
        let database = directory.url.appendingPathComponent("rewind.sqlite")
        try Data("not a database".utf8).write(to: database)
        let run = try await directory.run(["add", "Buy milk"])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("rewind todo: \(database.path) is not a Rewind database"))
        #expect(try Data(contentsOf: database) == Data("not a database".utf8))
    }
}
