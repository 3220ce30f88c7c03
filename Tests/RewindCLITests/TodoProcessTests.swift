import Foundation
import Testing
import TestSupport

@Suite("rewind todo across processes and terminals")
struct TodoProcessTests {
    @Test func aChangeByOneProcessIsSeenByTheNext() async throws {
        let directory = try TodoDirectory()
        try await directory.add("Buy milk")
        #expect(try await directory.titles() == ["Buy milk"])
        try await directory.succeed(["done", "1"])
        #expect(try await directory.titles(["--completed"]) == ["Buy milk"])
    }

    /// Starts one `rewind todo add` per title at once, waits for all, and
    /// returns what each wrote on standard error when one failed.
    static func addAtOnce(_ titles: [String], in directory: TodoDirectory) async throws -> [String] {
        let binary = try rewindBinaryURL()
        let errors = titles.indices.map { directory.url.appendingPathComponent("stderr-\($0)") }
        let processes = try titles.indices.map { index in
            try Data().write(to: errors[index])
            let error = try FileHandle(forWritingTo: errors[index])
            defer { try? error.close() }
            return try ChildProcess(
                binary, ["todo", "add", titles[index], "--data-dir", directory.url.path],
                standardOutput: .null, standardError: .handle(error))
        }
        for process in processes { try await process.exited("rewind todo add", timeout: .seconds(30)) }
        return try processes.indices.filter { processes[$0].terminationStatus != 0 }
            .map { String(decoding: try Data(contentsOf: errors[$0]), as: UTF8.self) }
    }

    @Test func processesAddingAtOnceAllLand() async throws {
        let directory = try TodoDirectory()
        _ = try await directory.items()
        let titles = (1...6).map { "Item \($0)" }
        #expect(try await Self.addAtOnce(titles, in: directory) == [])
        #expect(Set(try await directory.titles()) == Set(titles))
        let history = try await TodoDirectory.object(try directory.succeed(["history", "--json"]).stdout)
        #expect((history["steps"] as? [Any])?.count == 6)
    }

    @Test(arguments: 0..<3)
    func processesCreatingTheDatabaseAtOnceAllLand(round: Int) async throws {
        // A second process may open the new file between GRDB creating
        // `grdb_migrations` and the first migration marking the file as Rewind's.
        let directory = try TodoDirectory()
        let titles = (1...6).map { "Item \($0)" }
        let failures = try await Self.addAtOnce(titles, in: directory)
        #expect(failures == [])
    }

    /// Runs `rewind ARGUMENTS` through `sh` with `redirection` after it
    /// (`> /dev/full`, `>&-`).
    static func runRedirected(_ arguments: [String], _ redirection: String) async throws -> RewindRun {
        let command = ([try rewindBinaryURL().path] + arguments)
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try await runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command + " " + redirection], environment: ["TZ": "UTC"])
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aResultThatCannotBeWrittenSaysSoAndKeepsTheChange() async throws {
        let directory = try TodoDirectory()
        let full = try await Self.runRedirected(["todo", "add", "Buy milk", "--data-dir", directory.url.path], "> /dev/full")
        #expect(full.status == 74)
        #expect(full.stderr == "rewind: could not write to standard output (No space left on device); any change the command made is saved\n")
        let closed = try await Self.runRedirected(["todo", "add", "Call mum", "--json", "--data-dir", directory.url.path], ">&-")
        #expect(closed.status == 74)
        #expect(!closed.stderr.contains("Fatal error"))
        #expect(try await directory.titles() == ["Buy milk", "Call mum"])
        for arguments in [["todo", "list"], ["todo", "export"], ["todo", "history", "--json"]] {
            let run = try await Self.runRedirected(arguments + ["--data-dir", directory.url.path], "> /dev/full")
            #expect(run.status == 74, "\(arguments)")
        }
        let calc = try await Self.runRedirected(["calc", "1", "+", "2", "="], "> /dev/full")
        #expect(calc.status == 74)
    }

    @Test func coloursOnlyWhenAskedAndNeverWithNoColor() async throws {
        let directory = try TodoDirectory()
        try await directory.add("Late", ["--due", "2020-01-01"])
        let plain = try await directory.run(["list"], environment: ["NO_COLOR": ""])
        #expect(!plain.stdout.contains("\u{1B}["))
        let forced = try await directory.run(["list"], environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": ""])
        #expect(forced.stdout.contains("\u{1B}[31m1 Jan 2020 (overdue)\u{1B}[0m"))
        let refused = try await directory.run(["list"], environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": "1"])
        #expect(!refused.stdout.contains("\u{1B}["))
        #expect(refused.stdout == plain.stdout)
    }

    /// Runs `rewind todo ARGUMENTS` on a pseudo-terminal through `script`,
    /// so that standard output and standard error are terminals.
    static func runOnTerminal(_ arguments: [String], in directory: TodoDirectory, environment: [String: String] = [:]) async throws -> RewindRun {
        let command = ([try rewindBinaryURL().path, "todo"] + arguments + ["--data-dir", directory.url.path])
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try await runProcess(
            URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"],
            environment: ["TZ": "UTC", "NO_COLOR": "", "CLICOLOR_FORCE": "", "TERM": "xterm"].merging(environment) { $1 })
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func onATerminalListIsColouredUnlessNoColorIsSet() async throws {
        let directory = try TodoDirectory()
        try await directory.add("Late", ["--due", "2020-01-01"])
        #expect(try await Self.runOnTerminal(["list"], in: directory).stdout.contains("\u{1B}[31m1 Jan 2020 (overdue)\u{1B}[0m"))
        #expect(!(try await Self.runOnTerminal(["list"], in: directory, environment: ["NO_COLOR": "1"]).stdout.contains("\u{1B}[")))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func aBigImportOnATerminalShowsAProgressBarAndASmallOneDoesNot() async throws {
        let directory = try TodoDirectory()
        let items = (1...1000).map { (id: String(format: "00000000-0000-4000-8000-%012d", $0), title: "Item \($0)") }
        let big = directory.url.appendingPathComponent("big.json")
        try Data(todoDocument(items).utf8).write(to: big)
        let run = try await Self.runOnTerminal(["import", big.path], in: directory)
        #expect(run.status == 0)
        #expect(run.stdout.contains("Importing ["))
        #expect(run.stdout.contains("saving 1000 items"))
        #expect(run.stdout.contains("Imported 1000 items from \(big.path)"))
        #expect(try await directory.items().count == 1000)

        let small = directory.url.appendingPathComponent("small.json")
        try Data(todoDocument(Array(items.prefix(2))).utf8).write(to: small)
        #expect(!(try await Self.runOnTerminal(["import", small.path], in: directory).stdout.contains("Importing [")))
    }

    static let commands: [[String]] = [
        [], ["add"], ["list"], ["show"], ["edit"], ["done"], ["undone"], ["rm"], ["clear-completed"],
        ["undo"], ["redo"], ["history"], ["history", "show"], ["history", "jump"], ["export"], ["import"],
    ]

    @Test(arguments: commands)
    func everyCommandHasHelpWithExamplesAndTheDataDirOption(command: [String]) async throws {
        let run = try await runRewind(["todo"] + command + ["--help"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.contains("Examples:"))
        if !command.isEmpty && command != ["history"] {
            #expect(run.stdout.contains("--data-dir <dir>"))
        }
    }
}
