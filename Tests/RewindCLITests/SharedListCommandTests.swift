import Foundation
import Testing

/// A data directory (or, with `REWIND_TEST_DATABASE_URL`, a PostgreSQL
/// database) with accounts, for `rewind lists` and `rewind todo --as --list`.
/// On PostgreSQL the accounts get a suffix of their own, so that tests and
/// runs sharing the database do not meet.
private final class Team: Sendable {
    let directory: TodoDirectory
    /// `--data-dir DIR` or `--database URL`.
    let location: [String]
    /// Appended to every account name.
    let suffix: String

    init(_ backend: String) throws {
        directory = try TodoDirectory()
        if backend == "postgres", let url = TodoPostgresTests.testURL {
            location = ["--database", url]
            suffix = "-" + UUID().uuidString.prefix(8).lowercased()
        } else {
            location = ["--data-dir", directory.url.path]
            suffix = ""
        }
    }

    /// The account `name` as this team spells it.
    func name(_ name: String) -> String { name + suffix }

    /// Makes the accounts.
    func addAccounts(_ names: String...) async throws {
        for name in names {
            let run = try await runRewind(["users", "add", self.name(name), "--password-stdin"] + location, stdin: "correct horse battery\n")
            #expect(run.status == 0, "\(run.stderr)")
        }
    }

    /// Runs `rewind lists ARGUMENTS --as NAME`.
    @discardableResult
    func lists(_ arguments: [String], as person: String) async throws -> RewindRun {
        try await runRewind(["lists"] + arguments + ["--as", name(person)] + location, environment: ["TZ": "UTC"])
    }

    /// Runs `rewind todo ARGUMENTS --as NAME --list LIST`.
    @discardableResult
    func todo(_ arguments: [String], as person: String, list: String = "Groceries") async throws -> RewindRun {
        try await runRewind(["todo"] + arguments + ["--as", name(person), "--list", list] + location, environment: ["TZ": "UTC"])
    }

    /// Runs a command that must succeed.
    @discardableResult
    func succeed(_ run: RewindRun, sourceLocation: SourceLocation = #_sourceLocation) -> RewindRun {
        #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
        return run
    }

    /// ann makes “Groceries” and shares it with bob; carol exists and is not a member.
    func groceries() async throws {
        try await addAccounts("ann", "bob", "carol")
        succeed(try await lists(["create", "Groceries"], as: "ann"))
        succeed(try await lists(["share", "Groceries", name("bob")], as: "ann"))
    }

    /// Adds `title` as `person` and returns the item's short reference.
    func add(_ title: String, as person: String) async throws -> String {
        let run = succeed(try await todo(["add", title, "--json"], as: person))
        return try TodoDirectory.object(run.stdout)["ref"] as? String ?? ""
    }

    /// The items of the list as `person` sees them.
    func items(as person: String, list: String = "Groceries") async throws -> [[String: Any]] {
        let run = succeed(try await todo(["list", "--json"], as: person, list: list))
        return try TodoDirectory.object(run.stdout)["items"] as? [[String: Any]] ?? []
    }

    /// The titles of the items, in list order.
    func titles(as person: String, list: String = "Groceries") async throws -> [String] {
        try await items(as: person, list: list).compactMap { $0["title"] as? String }
    }

    /// What `person` can see: their lists, and the items and log of each.
    func everything(as person: String) async throws -> [String] {
        let lists = succeed(try await lists(["--json"], as: person)).stdout
        let ids = (try TodoDirectory.object(lists)["lists"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        var everything = [lists]
        for id in ids {
            everything.append(try await todo(["list", "--json"], as: person, list: id).stdout)
            everything.append(try await todo(["history", "--json"], as: person, list: id).stdout)
        }
        return everything
    }

    static let backends = ["sqlite"] + (TodoPostgresTests.testURL == nil ? [] : ["postgres"])
}

/// Expects one line on standard error, `prefix` first, holding `parts`, and the exit status.
private func expectRefused(
    _ run: RewindRun, status: Int32, prefix: String, containing parts: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(run.status == status, "\(run.stderr)", sourceLocation: sourceLocation)
    #expect(run.stdout.isEmpty, "\(run.stdout)", sourceLocation: sourceLocation)
    #expect(run.stderr.hasPrefix(prefix), "\(run.stderr)", sourceLocation: sourceLocation)
    #expect(run.stderr.filter { $0 == "\n" }.count == 1, "\(run.stderr)", sourceLocation: sourceLocation)
    for part in parts { #expect(run.stderr.contains(part), "\(run.stderr)", sourceLocation: sourceLocation) }
}

@Suite("rewind lists and rewind todo --as --list")
struct SharedListCommandTests {
    /// Removing an account never leaves lists without an owner, and an
    /// account made later with the same name gets nothing of the old one's.
    @Test(arguments: Team.backends)
    func removingAnAccountThatOwnsListsNamesThemUnlessTheyGoWithItAndTheNameComesBackEmpty(_ backend: String) async throws {
        let team = try Team(backend)
        try await team.groceries()
        team.succeed(try await team.lists(["create", "Chores"], as: "bob"))
        team.succeed(try await team.lists(["share", "Chores", team.name("ann")], as: "bob"))
        _ = try await team.add("Milk", as: "bob")
        team.succeed(try await team.todo(["add", "Old ann's step"], as: "ann", list: "Chores"))
        func users(_ arguments: [String]) async throws -> RewindRun { try await runRewind(["users"] + arguments + team.location) }

        // Typed in another case, the account is named as it was made.
        expectRefused(
            try await users(["rm", team.name("ann").uppercased(), "--yes"]), status: 1,
            prefix: "rewind users: “\(team.name("ann"))” owns 1 list: “Groceries”",
            containing: ["--delete-lists", "Nothing was removed"])
        #expect(team.succeed(try await team.lists([], as: "ann")).stdout.contains("Groceries"), "ann and her list are kept")
        #expect(try await team.titles(as: "bob") == ["Milk"])

        let removed = team.succeed(try await users(["rm", team.name("ann"), "--delete-lists", "--yes"]))
        #expect(removed.stdout.contains("Removed the account “\(team.name("ann"))”."), "\(removed.stdout)")
        #expect(removed.stdout.contains("Deleted 1 list: “Groceries”"), "\(removed.stdout)")
        #expect(removed.stdout.contains("Stopped sharing 1 list with it: “Chores”"), "\(removed.stdout)")
        let bobs = team.succeed(try await team.lists([], as: "bob")).stdout
        #expect(!bobs.contains("Groceries") && bobs.contains("Chores") && bobs.contains("not shared · 1 item left"), "\(bobs)")

        try await team.addAccounts("ann")
        let anns = team.succeed(try await team.lists([], as: "ann")).stdout
        #expect(anns.contains("no lists yet"), "the new ann got the old one's lists: \(anns)")

        // Shared Chores again, the new ann has none of the old one's steps to undo.
        team.succeed(try await team.lists(["share", "Chores", team.name("ann")], as: "bob"))
        let undo = team.succeed(try await team.todo(["undo"], as: "ann", list: "Chores"))
        #expect(undo.stdout.hasPrefix("Nothing to undo"), "\(undo.stdout)")
        #expect(try await team.titles(as: "bob", list: "Chores") == ["Old ann's step"])
        let history = team.succeed(try await team.todo(["history"], as: "ann", list: "Chores")).stdout
        #expect(history.contains("\(team.name("ann")) (a removed account)"), "\(history)")
        team.succeed(try await team.todo(["add", "New ann's step"], as: "ann", list: "Chores"))
        team.succeed(try await team.todo(["undo"], as: "ann", list: "Chores"))
        #expect(try await team.titles(as: "bob", list: "Chores") == ["Old ann's step"])

        // Shared again with the same account: nothing to change, and no failure (as a rename to its own name).
        let again = team.succeed(try await team.lists(["share", "Chores", team.name("ann")], as: "bob"))
        #expect(again.stdout == "Nothing to change: “Chores” is shared with \(team.name("ann")) already.\n")

        // Three hex digits are too few to start an id, and are said to be.
        let short = try await team.lists(["rm", "abc", "--yes"], as: "ann")
        #expect(short.status == 1)
        #expect(short.stderr.hasSuffix("(the start of an id needs at least 4 hex digits)\n"), "\(short.stderr)")

        // An empty shared list suggests its first add with --as and --list.
        team.succeed(try await team.lists(["create", "Empty"], as: "ann"))
        let empty = team.succeed(try await team.todo(["list"], as: "ann", list: "Empty")).stdout
        #expect(empty.hasPrefix("No items yet. Add one with: rewind todo add \"Buy milk\" "), "\(empty)")
        #expect(empty.contains(" --as \(team.name("ann")) --list Empty\n"), "\(empty)")
    }

    /// `list --search` on a shared list: the items that contain every word,
    /// numbered so that `done 1` completes the first one shown.
    @Test(arguments: Team.backends)
    func aSearchOfASharedListNumbersTheItemsFound(_ backend: String) async throws {
        let team = try Team(backend)
        try await team.groceries()
        for title in ["Milk", "Bread", "Oat milk"] { _ = try await team.add(title, as: "ann") }
        let found = team.succeed(try await team.todo(["list", "--search", "MILK oat"], as: "bob")).stdout
        #expect(found.contains("Oat milk") && !found.contains("Bread"), "\(found)")
        #expect(found.contains("1 found for “MILK oat” · 3 items left"), "\(found)")
        team.succeed(try await team.todo(["done", "1"], as: "bob"))
        let completed = try await team.items(as: "ann").filter { $0["state"] as? String == "completed" }
        #expect(completed.compactMap { $0["title"] as? String } == ["Oat milk"])
    }

    /// `move` on a shared list: by the numbers of the account's last
    /// listing, as one step of the account that its Undo takes back.
    @Test(arguments: Team.backends)
    func aMemberMovesAnItemOfASharedList(_ backend: String) async throws {
        let team = try Team(backend)
        try await team.groceries()
        for title in ["Milk", "Bread", "Eggs"] { _ = try await team.add(title, as: "ann") }
        team.succeed(try await team.todo(["list"], as: "bob"))
        let moved = team.succeed(try await team.todo(["move", "3", "--before", "1"], as: "bob")).stdout
        #expect(moved.hasPrefix("Moved ") && moved.contains("“Eggs” before ") && moved.hasSuffix("“Milk”\n"), "\(moved)")
        #expect(try await team.titles(as: "ann") == ["Eggs", "Milk", "Bread"])
        let shown = team.succeed(try await team.todo(["show", "1"], as: "bob")).stdout
        #expect(shown.hasPrefix("Milk\n") && shown.contains("active"), "numbers of bob's last list: \(shown)")
        let json = team.succeed(try await team.todo(["show", "1", "--json"], as: "bob")).stdout
        #expect(json.contains(#""title" : "Milk""#), "\(json)")
        let exported = team.succeed(try await team.todo(["export"], as: "bob")).stdout
        let document = try #require(try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [String: Any])
        #expect(document["format"] as? String == "rewind-todos")
        #expect((document["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Eggs", "Milk", "Bread"])
        let again = team.succeed(try await team.todo(["move", "3", "--top"], as: "bob"))
        #expect(again.stderr == "Nothing to change: “Eggs” is already at the top.\n")
        team.succeed(try await team.todo(["undo"], as: "bob"))
        #expect(try await team.titles(as: "ann") == ["Milk", "Bread", "Eggs"])
    }

    /// `clear-completed` on a shared list: one step of the account, which
    /// its Undo takes back; with nothing completed, said and nothing made.
    @Test(arguments: Team.backends)
    func aMemberClearsTheCompletedItemsOfASharedList(_ backend: String) async throws {
        let team = try Team(backend)
        try await team.groceries()
        for title in ["Milk", "Bread", "Eggs"] { _ = try await team.add(title, as: "ann") }
        let nothing = team.succeed(try await team.todo(["clear-completed"], as: "bob"))
        #expect(nothing.stderr == "Nothing to clear: no item is completed.\n")
        team.succeed(try await team.todo(["list"], as: "bob"))
        team.succeed(try await team.todo(["done", "1", "3"], as: "bob"))
        let cleared = team.succeed(try await team.todo(["clear-completed"], as: "bob")).stdout
        #expect(cleared.contains("Deleted ") && cleared.contains("“Milk”") && cleared.contains("“Eggs”"), "\(cleared)")
        #expect(try await team.titles(as: "ann") == ["Bread"])
        #expect(team.succeed(try await team.todo(["history"], as: "ann")).stdout.contains("Clear 2 completed items"))
        team.succeed(try await team.todo(["undo"], as: "bob"))
        #expect(try await team.titles(as: "ann") == ["Milk", "Bread", "Eggs"])
    }

    /// `rewind todo --database URL add …`: the options of `users`, `lists`
    /// and `todo` (and `todo history`) work before the subcommand's name
    /// as after it.
    @Test(arguments: Team.backends)
    func optionsGoBeforeTheSubcommandAsWellAsAfterIt(_ backend: String) async throws {
        let team = try Team(backend)
        let (ann, dave) = (team.name("ann"), team.name("dave"))
        try await team.addAccounts("ann")
        team.succeed(try await runRewind(["users"] + team.location + ["add", dave, "--password-stdin"], stdin: "correct horse battery\n"))
        #expect(team.succeed(try await runRewind(["users"] + team.location + ["list"])).stdout.contains(dave))

        team.succeed(try await runRewind(["lists"] + team.location + ["--as", ann, "create", "Chores"]))
        team.succeed(try await runRewind(["lists", "--as", ann] + team.location + ["share", "chores", dave]))
        let before = ["todo"] + team.location + ["--as", dave, "--list", "chores"]
        team.succeed(try await runRewind(before + ["add", "Sweep"]))
        #expect(team.succeed(try await runRewind(before + ["history"])).stdout.contains("Add “Sweep”"))
        #expect(team.succeed(try await runRewind(["todo", "history"] + team.location + ["--as", ann, "--list", "chores", "show"])).stdout
            .contains("Add “Sweep”"))
        #expect(try await team.titles(as: "ann", list: "Chores") == ["Sweep"])

        // --as is still needed, wherever it would go; nothing is made without it.
        let without = try await runRewind(["lists"] + team.location + ["create", "Errands"])
        #expect(without.status == 64, "\(without.stderr)")
        #expect(without.stderr.contains("Missing expected argument '--as <name>'"), "\(without.stderr)")
        #expect(without.stderr.contains("Usage: rewind lists create"), "\(without.stderr)")
        #expect(!team.succeed(try await team.lists([], as: "ann")).stdout.contains("Errands"))
    }

    @Test(arguments: Team.backends)
    func annsUndoOfARenameBobRenamedSinceSaysSoAndKeepsBobsTitle(_ backend: String) async throws {
        let team = try Team(backend)
        try await team.groceries()
        let milk = try await team.add("Milk", as: "ann")
        team.succeed(try await team.todo(["edit", milk, "--title", "Oat milk"], as: "ann"))
        team.succeed(try await team.todo(["edit", milk, "--title", "Soy milk"], as: "bob"))
        let listing = team.succeed(try await team.todo(["list"], as: "ann")).stdout
        #expect(listing.contains("Undo: Rename “Milk” to “Oat milk”"), "\(listing)")
        let undo = team.succeed(try await team.todo(["undo"], as: "ann"))
        #expect(undo.stdout.contains("Undid: Rename “Milk” to “Oat milk”"), "\(undo.stdout)")
        #expect(undo.stdout.contains("Could not undo the rename of “Milk”: \(team.name("bob")) renamed it since."), "\(undo.stdout)")
        #expect(try await team.titles(as: "bob") == ["Soy milk"])
        let history = team.succeed(try await team.todo(["history"], as: "bob")).stdout.split(separator: "\n").map(String.init)
        #expect(history.first?.contains("\(team.name("ann"))  undo of 2  Rename “Milk” to “Oat milk”") == true, "\(history)")
        // Bob reads of his own rename as his.
        #expect(history.contains { $0.contains("Could not undo the rename of “Milk”: you renamed it since.") }, "\(history)")
        // The kinds padded to the widest, "undo of 2".
        #expect(history.last?.contains("\(team.name("ann"))  change     Add “Milk”") == true, "\(history)")
        // The names padded too: the dates start in one column.
        let rows = history.filter { $0.contains("“") && !$0.hasPrefix(" ") }
        let dateColumns = Set(rows.compactMap { row in row.range(of: "today").map { row.distance(from: row.startIndex, to: $0.lowerBound) } })
        #expect(rows.count >= 3 && dateColumns.count == 1, "\(history)")
    }

    @Test(arguments: Team.backends)
    func annsUndoOfHerAddAfterBobCompletedTheItemKeepsItAndSaysSo(_ backend: String) async throws {
        let team = try Team(backend)
        try await team.groceries()
        let milk = try await team.add("Milk", as: "ann")
        team.succeed(try await team.todo(["done", milk], as: "bob"))
        let undo = team.succeed(try await team.todo(["undo"], as: "ann"))
        #expect(undo.stdout.contains("Undid: Add “Milk”"), "\(undo.stdout)")
        #expect(undo.stdout.contains("Kept “Milk”: \(team.name("bob")) changed it since."), "\(undo.stdout)")
        let items = try await team.items(as: "ann")
        #expect(items.map { $0["title"] as? String } == ["Milk"])
        #expect(items.first?["state"] as? String == "completed")
    }

    @Test(arguments: Team.backends)
    func annsRedoIsKeptWhenBobChangesTheList(_ backend: String) async throws {
        let team = try Team(backend)
        try await team.groceries()
        _ = try await team.add("Milk", as: "ann")
        team.succeed(try await team.todo(["undo"], as: "ann"))
        _ = try await team.add("Bread", as: "bob")
        let listing = team.succeed(try await team.todo(["list"], as: "ann")).stdout
        #expect(listing.contains("Redo: Add “Milk”"), "\(listing)")
        let redo = team.succeed(try await team.todo(["redo"], as: "ann"))
        #expect(redo.stdout.contains("Redid: Add “Milk”"), "\(redo.stdout)")
        #expect(try await team.titles(as: "bob").sorted() == ["Bread", "Milk"])
        // bob's undo takes back his own add, not ann's redo.
        team.succeed(try await team.todo(["undo"], as: "bob"))
        #expect(try await team.titles(as: "ann") == ["Milk"])
    }

    @Test(arguments: Team.backends)
    func anUndoWithNothingOfOnesOwnToUndoSaysSoAndSucceeds(_ backend: String) async throws {
        let team = try Team(backend)
        try await team.groceries()
        _ = try await team.add("Milk", as: "ann")
        let undo = team.succeed(try await team.todo(["undo"], as: "bob"))
        #expect(undo.stdout.hasPrefix("Nothing to undo: "), "\(undo.stdout)")
        #expect(undo.stdout.contains("“Groceries”"), "\(undo.stdout)")
        let redo = team.succeed(try await team.todo(["redo"], as: "ann"))
        #expect(redo.stdout.hasPrefix("Nothing to redo: "), "\(redo.stdout)")
        let json = team.succeed(try await team.todo(["undo", "--json"], as: "bob"))
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["undone"] as? [Any])?.isEmpty == true, "\(json.stdout)")
        #expect(try await team.titles(as: "ann") == ["Milk"])
    }

    @Test(arguments: Team.backends)
    func itemsAreChangedAndDeletedByTheirNumbersInOnesOwnLastListing(_ backend: String) async throws {
        let team = try Team(backend)
        try await team.groceries()
        _ = try await team.add("Milk", as: "ann")
        _ = try await team.add("Bread", as: "bob")
        _ = try await team.items(as: "bob")
        team.succeed(try await team.todo(["done", "2"], as: "bob"))
        team.succeed(try await team.todo(["rm", "1"], as: "bob"))
        let items = try await team.items(as: "ann")
        #expect(items.map { $0["title"] as? String } == ["Bread"])
        #expect(items.first?["state"] as? String == "completed")
    }

    @Test(arguments: Team.backends)
    func anOutsiderGetsTheSameAnswerForAnothersListAsForNoListAndChangesNothing(_ backend: String) async throws {
        let team = try Team(backend)
        try await team.groceries()
        _ = try await team.add("Milk", as: "ann")
        let lists = team.succeed(try await team.lists(["--json"], as: "ann")).stdout
        let id = (try TodoDirectory.object(lists)["lists"] as? [[String: Any]])?.first?["id"] as? String ?? ""
        let before = try await team.everything(as: "ann")
        let carol = team.name("carol")
        for reference in ["Groceries", id, String(id.prefix(8))] {
            for run in [
                try await team.todo(["list"], as: "carol", list: reference),
                try await team.todo(["add", "Stolen"], as: "carol", list: reference),
                try await team.todo(["undo"], as: "carol", list: reference),
            ] {
                expectRefused(run, status: 1, prefix: "rewind todo: no list “\(reference)” among \(carol)'s lists")
            }
            for arguments in [["rename", reference, "Mine"], ["rm", reference, "--yes"], ["share", reference, carol]] {
                expectRefused(try await team.lists(arguments, as: "carol"), status: 1, prefix: "rewind lists: no list “\(reference)” among \(carol)'s lists")
            }
        }
        expectRefused(try await team.todo(["list"], as: "carol", list: "Nothing"), status: 1, prefix: "rewind todo: no list “Nothing” among \(carol)'s lists")
        #expect(team.succeed(try await team.lists([], as: "carol")).stdout.contains("has no lists yet"))
        #expect(try await team.everything(as: "ann") == before)
    }

    @Test(arguments: Team.backends)
    func onlyTheOwnerSharesRenamesAndDeletesAList(_ backend: String) async throws {
        let team = try Team(backend)
        try await team.groceries()
        let (ann, bob, carol) = (team.name("ann"), team.name("bob"), team.name("carol"))
        for arguments in [["rename", "groceries", "Mine"], ["rm", "groceries", "--yes"], ["share", "groceries", carol], ["unshare", "groceries", ann]] {
            expectRefused(try await team.lists(arguments, as: "bob"), status: 1, prefix: "rewind lists: only \(ann), the owner of “Groceries”, may")
        }
        expectRefused(try await team.lists(["share", "groceries", team.name("dave")], as: "ann"), status: 1, prefix: "rewind lists: there is no account")
        let listing = team.succeed(try await team.lists([], as: "bob")).stdout
        #expect(listing.contains("Groceries") && listing.contains("owner \(ann), shared with \(bob)"), "\(listing)")
        team.succeed(try await team.lists(["rename", "groceries", "Weekly shop"], as: "ann"))
        team.succeed(try await team.lists(["unshare", "weekly shop", bob], as: "ann"))
        expectRefused(try await team.todo(["list"], as: "bob", list: "Weekly shop"), status: 1, prefix: "rewind todo: no list “Weekly shop” among \(bob)'s lists")
        team.succeed(try await team.lists(["rm", "weekly shop", "--yes"], as: "ann"))
        #expect(!team.succeed(try await team.lists(["--json"], as: "ann")).stdout.contains("Weekly"))
    }

    /// A member leaves a list (`leave`, or `unshare` naming itself, as the
    /// API allows); the owner is told that an owner neither joins nor
    /// leaves its list; a rename to the same name changes nothing; a
    /// second list of one name is pointed out; and an account is named as
    /// it was made, whatever the case it is typed in.
    @Test(arguments: Team.backends)
    func aMemberLeavesAndTheOwnerIsToldWhatAnOwnerDoes(_ backend: String) async throws {
        let team = try Team(backend)
        try await team.groceries()
        let (ann, bob, carol) = (team.name("ann"), team.name("bob"), team.name("carol"))
        let left = team.succeed(try await team.lists(["leave", "groceries"], as: "bob"))
        #expect(left.stdout == "Left \(ann)'s list “Groceries”; it is no longer shared with \(bob).\n")
        expectRefused(try await team.todo(["list"], as: "bob"), status: 1, prefix: "rewind todo: no list “Groceries” among \(bob)'s lists")
        team.succeed(try await team.lists(["share", "groceries", bob.uppercased()], as: "ann"))
        #expect(team.succeed(try await team.lists([], as: "ann")).stdout.contains("shared with \(bob) ·"), "the account's own spelling")
        team.succeed(try await team.lists(["unshare", "groceries", bob], as: "bob"))
        #expect(!team.succeed(try await team.lists(["--json"], as: "bob")).stdout.contains("Groceries"))

        expectRefused(
            try await team.lists(["share", "groceries", ann], as: "ann"), status: 1,
            prefix: "rewind lists: This list is \(ann)'s, and its owner can open it already.")
        expectRefused(
            try await team.lists(["leave", "groceries"], as: "ann"), status: 1,
            prefix: "rewind lists: This list is \(ann)'s, and its owner does not leave it: delete it instead, or keep it.")
        expectRefused(try await team.lists(["leave", "groceries"], as: "carol"), status: 1, prefix: "rewind lists: no list “groceries” among \(carol)'s lists")
        expectRefused(
            try await team.todo(["list"], as: "ann", list: " "), status: 64,
            prefix: "rewind todo: the list is named by its name or the start of its id, and this one is empty")

        let same = team.succeed(try await team.lists(["rename", "groceries", "Groceries"], as: "ann"))
        #expect(same.stdout.isEmpty)
        #expect(same.stderr == "Nothing to change: the list is already named “Groceries”.\n")
        let second = team.succeed(try await team.lists(["create", "groceries"], as: "ann"))
        #expect(second.stdout.hasPrefix("Made the list “groceries” ("), "\(second.stdout)")
        let made = try #require(second.stdout.split(separator: "(").last?.prefix(8)).description
        #expect(second.stderr.hasPrefix("\(ann) has another list named so: “Groceries” ("), "\(second.stderr)")
        #expect(second.stderr.hasSuffix("; name them by id in commands (this one is \(made)).\n"), "\(second.stderr)")
        #expect(second.stderr.components(separatedBy: made).count == 2, "the new list is not named among the others: \(second.stderr)")
    }

    @Test func badInputExits64WithOneLine() async throws {
        let team = try Team("sqlite")
        try await team.groceries()
        let location = team.location
        expectRefused(try await runRewind(["todo", "list", "--as", "ann"] + location), status: 64, prefix: "rewind todo: --as and --list go together")
        expectRefused(try await runRewind(["todo", "add", "Milk", "--list", "Groceries"] + location), status: 64, prefix: "rewind todo: --as and --list go together")
        expectRefused(try await team.todo(["list"], as: "no way!"), status: 64, prefix: "rewind todo: ")
        expectRefused(try await team.lists(["create", "Mine"], as: "no way!"), status: 64, prefix: "rewind lists: ")
        expectRefused(try await team.lists(["create", "   "], as: "ann"), status: 64, prefix: "rewind lists: A list's name must not be empty.")
        expectRefused(try await team.todo(["history", "jump", "0"], as: "ann"), status: 64, prefix: "rewind todo: `rewind todo history jump` works on the local list only")
        expectRefused(try await team.todo(["import", "-"], as: "ann"), status: 64, prefix: "rewind todo: `rewind todo import` works on the local list only")
        expectRefused(try await team.todo(["history", "--limit", "0"], as: "ann"), status: 64, prefix: "rewind todo: A page of history holds 1 to 500 rows")
        expectRefused(try await team.todo(["history", "--after", "3"], as: "ann"), status: 64, prefix: "rewind todo: a shared list's history is paged from the newest: use --before, not --after")
        expectRefused(try await team.lists(["rm", "groceries"], as: "ann"), status: 64, prefix: "rewind lists: deleting “Groceries” needs confirmation")
        #expect(team.succeed(try await team.lists([], as: "ann")).stdout.contains("Groceries"))
        expectRefused(try await team.lists([], as: "zed"), status: 1, prefix: "rewind lists: there is no account “zed”")
        expectRefused(try await team.todo(["list"], as: "zed"), status: 1, prefix: "rewind todo: there is no account “zed”")
        // The local list is untouched by all of it.
        #expect(try await team.directory.titles().isEmpty)
    }

    @Test func historyIsPagedNewestFirst() async throws {
        let team = try Team("sqlite")
        try await team.groceries()
        for title in ["A", "B", "C"] { _ = try await team.add(title, as: "ann") }
        let page = team.succeed(try await team.todo(["history", "--limit", "2"], as: "bob")).stdout
        #expect(page.contains("3  \(team.name("ann"))  change  Add “C”") && page.contains("Add “B”") && !page.contains("Add “A”"), "\(page)")
        #expect(page.contains("--before 2"), "\(page)")
        let next = team.succeed(try await team.todo(["history", "--limit", "2", "--before", "2"], as: "bob")).stdout
        #expect(next.contains("Add “A”") && !next.contains("Add “B”"), "\(next)")
    }
}
