import Foundation
import Testing
import TestSupport
import TodoStore
import Todos

/// A temporary data directory for `rewind users`, and what it saved.
private final class UsersDirectory: Sendable {
    let directory: TodoDirectory
    /// Every password the tests type; none may ever be written out.
    static let passwords = ["correct horse battery", "a new password, longer", "short"]

    init() throws {
        directory = try TodoDirectory()
    }

    /// Runs `rewind users ARGUMENTS --data-dir DIR`, its standard input
    /// `stdin` (not a terminal), and checks that no password shows.
    func run(_ arguments: [String], stdin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws -> RewindRun {
        let run = try await runRewind(["users"] + arguments + ["--data-dir", directory.url.path], stdin: stdin, environment: ["TZ": "UTC"])
        for password in Self.passwords {
            #expect(!run.stdout.contains(password) && !run.stderr.contains(password), "a password was written out", sourceLocation: sourceLocation)
        }
        return run
    }

    /// `rewind users add NAME --password-stdin` with `password` on standard input.
    func add(_ name: String, password: String = UsersDirectory.passwords[0]) async throws -> RewindRun {
        try await run(["add", name, "--password-stdin"], stdin: password + "\n")
    }

    /// The accounts saved, as the store reads them.
    func accounts() async throws -> [Account] {
        try await SQLiteAccountStore.open(url: directory.url.appendingPathComponent("rewind.sqlite")).list()
    }

    /// The password hash saved for `name`.
    func hash(_ name: String) async throws -> String? {
        try await SQLiteAccountStore.open(url: directory.url.appendingPathComponent("rewind.sqlite"))
            .passwordHash(for: AccountName(name))
    }
}

/// Expects `run` to have failed with `status` and one line on standard
/// error that starts `rewind users: ` and holds `parts`.
private func expectRefused(
    _ run: RewindRun, status: Int32, containing parts: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(run.status == status, "\(run.stderr)", sourceLocation: sourceLocation)
    #expect(run.stdout.isEmpty, sourceLocation: sourceLocation)
    #expect(run.stderr.hasPrefix("rewind users: "), "\(run.stderr)", sourceLocation: sourceLocation)
    #expect(run.stderr.filter { $0 == "\n" }.count == 1, "\(run.stderr)", sourceLocation: sourceLocation)
    for part in parts { #expect(run.stderr.contains(part), "\(run.stderr)", sourceLocation: sourceLocation) }
}

@Suite("rewind users")
struct UsersCommandTests {
    @Test func anAccountAddedWithItsPasswordOnStandardInputIsListedAndHashedWithBcryptAtCost12() async throws {
        let users = try UsersDirectory()
        let added = try await users.add("Ann")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.output == "Added the account “Ann”.")
        let list = try await users.run(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.lines.count == 1)
        #expect(list.output.hasPrefix("Ann  created 20"), "\(list.output)")
        let json = try await users.run(["list", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let accounts = try #require(object?["accounts"] as? [[String: Any]])
        #expect(accounts.map { $0["name"] as? String } == ["Ann"])
        #expect(accounts.first?["created"] is String)
        #expect(!json.stdout.contains("$2"), "no hash in the output")

        let hash = try #require(try await users.hash("ann"))
        #expect(hash.hasPrefix("$2b$12$") || hash.hasPrefix("$2y$12$"), "\(hash)")
        #expect(await PasswordHasher.standard.verify(UsersDirectory.passwords[0], against: hash))
    }

    @Test func aNameTakenInAnotherCaseIsRefusedWith64AndTheFirstHashIsKept() async throws {
        let users = try UsersDirectory()
        #expect(try await users.add("Ann").status == 0)
        let first = try await users.hash("ann")
        let again = try await users.add("aNN", password: UsersDirectory.passwords[1])
        expectRefused(again, status: 64, containing: ["“Ann” exists already", "without case"])
        #expect(try await users.hash("ann") == first)
        #expect(try await users.accounts().map(\.name.text) == ["Ann"])
    }

    @Test func aWeakPasswordIsRefusedWith64AndNothingIsSaved() async throws {
        let users = try UsersDirectory()
        expectRefused(try await users.add("ann", password: "short"), status: 64, containing: ["at least 10 characters", "Nothing was saved"])
        expectRefused(
            try await users.add("ann", password: String(repeating: "é", count: 37)), status: 64, containing: ["at most 72 bytes"])
        expectRefused(try await users.run(["add", "ann", "--password-stdin"], stdin: ""), status: 64, containing: ["held no password"])
        #expect(try await users.accounts().isEmpty)
        #expect(try await users.run(["list"]).output.hasPrefix("No accounts yet"))
    }

    @Test func aNameAgainstTheRulesIsRefusedWith64() async throws {
        let users = try UsersDirectory()
        expectRefused(try await users.add("ann smith"), status: 64, containing: ["letters a–z", "“ ” is not allowed"])
        expectRefused(try await users.add(".ann"), status: 64, containing: ["must start with a letter or a digit"])
        expectRefused(try await users.run(["rm", "ann/x", "--yes"]), status: 64, containing: ["is not allowed"])
        #expect(try await users.accounts().isEmpty)
    }

    @Test func withoutATerminalAndWithoutPasswordStdinNothingIsAskedOrSaved() async throws {
        let users = try UsersDirectory()
        expectRefused(try await users.run(["add", "ann"], stdin: UsersDirectory.passwords[0] + "\n"), status: 64, containing: ["--password-stdin"])
        #expect(try await users.accounts().isEmpty)
    }

    @Test func passwdReplacesTheHashSoThatOnlyTheNewPasswordVerifies() async throws {
        let users = try UsersDirectory()
        #expect(try await users.add("ann").status == 0)
        #expect(try await users.add("bob").status == 0)
        let bobBefore = try await users.hash("bob")
        let changed = try await users.run(["passwd", "ANN", "--password-stdin"], stdin: UsersDirectory.passwords[1] + "\n")
        #expect(changed.status == 0, "\(changed.stderr)")
        // Named as the account was made, not as it was typed.
        #expect(changed.output == "Changed the password of “ann”.")
        let hash = try #require(try await users.hash("ann"))
        let hasher = PasswordHasher.standard
        #expect(await hasher.verify(UsersDirectory.passwords[1], against: hash))
        #expect(await !hasher.verify(UsersDirectory.passwords[0], against: hash))
        #expect(try await users.hash("bob") == bobBefore)

        expectRefused(
            try await users.run(["passwd", "ann", "--password-stdin"], stdin: "short\n"), status: 64, containing: ["at least 10"])
        #expect(try await users.hash("ann") == hash)
        expectRefused(
            try await users.run(["passwd", "carol", "--password-stdin"], stdin: UsersDirectory.passwords[1] + "\n"),
            status: 1, containing: ["no account named “carol”", "rewind users list"])
    }

    @Test func rmRemovesTheAccountAndRefusesAnUnknownOne() async throws {
        let users = try UsersDirectory()
        #expect(try await users.add("ann").status == 0)
        #expect(try await users.add("Bob").status == 0)
        let removed = try await users.run(["rm", "bob", "--yes"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.output == "Removed the account “Bob”.")
        #expect(try await users.accounts().map(\.name.text) == ["ann"])
        expectRefused(try await users.run(["rm", "bob", "--yes"]), status: 1, containing: ["no account named “bob”"])
    }

    /// Lists an older version's removal left with no owner pass to an
    /// account made later with that name: `add` names them.
    @Test func addNamesTheListsAnEarlierAccountOfTheNameLeft() async throws {
        let users = try UsersDirectory()
        #expect(try await users.add("bob").status == 0)
        // As an older version's `users rm ann` left them: the lists are
        // there, the account is not.
        let lists = try await SQLiteSharedListStore.open(url: users.directory.url.appendingPathComponent("rewind.sqlite"))
        let ann = try AccountName("ann")
        let groceries = try await lists.create(name: "Groceries", owner: ann)
        let chores = try await lists.create(name: "Chores", owner: try AccountName("bob"))
        try await lists.share(chores.id, with: ann, madeAt: .distantPast, by: try AccountName("bob"))

        let added = try await users.add("Ann")
        #expect(added.status == 0, "\(added.stderr)")
        let lines = added.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "Added the account “Ann”.")
        let id = { (list: SharedListSummary) in String(list.id.uuidString.lowercased().prefix(8)) }
        #expect(lines.count == 2 && lines[1].contains("can open 2 lists kept from an earlier account"), "\(lines)")
        #expect(lines.last?.contains("“Groceries” (\(id(groceries)), its own)") == true, "\(lines)")
        #expect(lines.last?.contains("“Chores” (\(id(chores)), shared by bob)") == true, "\(lines)")
        // A name no list knows: one line.
        #expect(try await users.add("carol").output == "Added the account “carol”.")
    }

    @Test func rmWithoutATerminalNeedsYesAndRemovesNothing() async throws {
        let users = try UsersDirectory()
        #expect(try await users.add("ann").status == 0)
        expectRefused(try await users.run(["rm", "ann"], stdin: "yes\n"), status: 64, containing: ["--yes", "Nothing was removed"])
        #expect(try await users.accounts().map(\.name.text) == ["ann"])
    }

    @Test(.enabled(if: TodoPostgresTests.testURL != nil, TodoPostgresTests.missing))
    func theAccountsLiveInThePostgreSQLDatabaseOfTheList() async throws {
        let url = try #require(TodoPostgresTests.testURL)
        // The database's own schema, shared with other tests: a name of this test's own.
        let name = "Pg-" + UUID().uuidString.prefix(8).lowercased()
        let directory = try TodoDirectory()
        func users(_ arguments: [String], stdin: String? = nil) async throws -> RewindRun {
            let run = try await runRewind(
                ["users"] + arguments, stdin: stdin,
                environment: ["REWIND_DATA_DIR": directory.url.path, "REWIND_DATABASE_URL": url])
            for password in UsersDirectory.passwords { #expect(!run.stdout.contains(password) && !run.stderr.contains(password)) }
            return run
        }
        func names() async throws -> [String] {
            let object = try await JSONSerialization.jsonObject(with: Data(try users(["list", "--json"]).stdout.utf8)) as? [String: Any]
            return (object?["accounts"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        #expect(try await users(["add", name, "--password-stdin"], stdin: UsersDirectory.passwords[0] + "\n").status == 0)
        #expect(try await names().contains(name))
        expectRefused(
            try await users(["add", name.uppercased(), "--password-stdin"], stdin: UsersDirectory.passwords[1] + "\n"),
            status: 64, containing: ["“\(name)” exists already"])
        #expect(try await users(["passwd", name, "--password-stdin"], stdin: UsersDirectory.passwords[1] + "\n").status == 0)
        #expect(try await users(["rm", name.lowercased(), "--yes"]).status == 0)
        #expect(try await !names().contains(name))
        // Nothing went to the data directory's SQLite file.
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("rewind.sqlite").path))
    }

    @Test func helpListsUsersAndItsCommands() async throws {
        let top = try await runRewind(["--help"])
        #expect(top.stdout.contains("users"), "\(top.stdout)")
        let users = try await runRewind(["users", "--help"])
        #expect(users.status == 0)
        for part in ["add", "list", "rm", "passwd", "--password-stdin", "compared without case", "at least 10 characters"] {
            #expect(users.stdout.contains(part), "\(part) in \(users.stdout)")
        }
    }
}

/// `rewind users` on a terminal: the password asked twice, never echoed,
/// and the terminal left as it was.
@Suite("rewind users on a terminal")
struct UsersTerminalTests {
    private func start(_ arguments: [String], in users: UsersDirectory) async throws -> PseudoTerminal {
        try PseudoTerminal(try rewindBinaryURL(), ["users"] + arguments + ["--data-dir", users.directory.url.path])
    }

    @Test func thePasswordIsAskedTwiceWithoutEchoAndSaved() async throws {
        let users = try UsersDirectory()
        let terminal = try await start(["add", "ann"], in: users)
        let password = UsersDirectory.passwords[0]
        try await waitUntil("the first prompt; the screen shows \(terminal.screen.debugDescription)") {
            terminal.screen.contains("Password for ann: ")
        }
        #expect(!terminal.isCookedAndEchoing)
        terminal.type(password + "\n")
        try await waitUntil("the second prompt; the screen shows \(terminal.screen.debugDescription)") {
            terminal.screen.contains("again: ")
        }
        terminal.type(password + "\n")
        try await terminal.waitForExit()
        #expect(terminal.process.terminationStatus == 0, "\(terminal.screen)")
        #expect(terminal.screen.contains("Added the account “ann”."))
        #expect(!terminal.screen.contains(password))
        #expect(terminal.isCookedAndEchoing)
        let hash = try #require(try await users.hash("ann"))
        #expect(await PasswordHasher.standard.verify(password, against: hash))
    }

    @Test func twoPasswordsThatDifferAreRefusedAndNothingIsSaved() async throws {
        let users = try UsersDirectory()
        let terminal = try await start(["add", "ann"], in: users)
        try await waitUntil("the first prompt") { terminal.screen.contains("Password for ann: ") }
        terminal.type(UsersDirectory.passwords[0] + "\n")
        try await waitUntil("the second prompt") { terminal.screen.contains("again: ") }
        terminal.type(UsersDirectory.passwords[1] + "\n")
        try await terminal.waitForExit()
        #expect(terminal.process.terminationStatus == 64)
        #expect(terminal.screen.contains("rewind users: the two passwords differ; nothing was saved."))
        #expect(!terminal.screen.contains(UsersDirectory.passwords[0]) && !terminal.screen.contains(UsersDirectory.passwords[1]))
        #expect(terminal.isCookedAndEchoing)
        #expect(try await users.accounts().isEmpty)
    }

    @Test func aSignalWhileThePasswordIsTypedLeavesTheTerminalEchoingAndSavesNothing() async throws {
        let users = try UsersDirectory()
        let terminal = try await start(["add", "ann"], in: users)
        try await waitUntil("the first prompt") { terminal.screen.contains("Password for ann: ") }
        #expect(!terminal.isCookedAndEchoing)
        // As a closed window (SIGHUP) or `kill` would: the pseudo-terminal is
        // no controlling terminal here, so Ctrl-C would signal no one.
        terminal.process.terminate()
        try await terminal.waitForExit()
        #expect(terminal.process.terminationStatus != 0)
        #expect(terminal.isCookedAndEchoing)
        #expect(try await users.accounts().isEmpty)
    }

    @Test func rmAsksAndKeepsTheAccountUnlessTheAnswerIsYes() async throws {
        let users = try UsersDirectory()
        #expect(try await users.add("ann").status == 0)
        let kept = try await start(["rm", "ann"], in: users)
        try await waitUntil("the question") { kept.screen.contains("Remove the account “ann”? [y/N] ") }
        kept.type("n\n")
        try await kept.waitForExit()
        #expect(kept.process.terminationStatus == 1)
        #expect(try await users.accounts().map(\.name.text) == ["ann"])

        let removed = try await start(["rm", "ann"], in: users)
        try await waitUntil("the question") { removed.screen.contains("Remove the account “ann”? [y/N] ") }
        removed.type("yes\n")
        try await removed.waitForExit()
        #expect(removed.process.terminationStatus == 0, "\(removed.screen)")
        #expect(try await users.accounts().isEmpty)
    }
}
