import Foundation
import Testing

/// The files `rewind todo` writes and reads besides its database: what
/// `export` may replace and with which permissions, how much `import` reads,
/// and which data directories it refuses.
@Suite("rewind todo files")
struct TodoFileSafetyTests {
    /// A data directory with one item, and a folder for export targets.
    final class Setup: @unchecked Sendable {
        let data: TodoDirectory
        let folder: TodoDirectory

        init() async throws {
            data = try TodoDirectory()
            try await data.add("Buy milk")
            folder = try TodoDirectory()
        }

        func path(_ name: String) -> String {
            folder.url.appendingPathComponent(name).path
        }
    }

    static func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    static func type(_ path: String) throws -> FileAttributeType? {
        try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
    }

    @Suite("export")
    struct Export {
        @Test func aNewFileIsReadableByItsOwnerOnly() async throws {
            let setup = try await Setup()
            let run = try await setup.data.run(["export", setup.path("todos.json")], environment: [:])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try TodoFileSafetyTests.mode(setup.path("todos.json")) == 0o600)
            #expect(try String(contentsOfFile: setup.path("todos.json"), encoding: .utf8).contains("Buy milk"))
        }

        @Test func anExistingRegularFileIsReplacedAndKeepsItsMode() async throws {
            let setup = try await Setup()
            let target = setup.path("shared.json")
            try Data("old\n".utf8).write(to: URL(fileURLWithPath: target))
            try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: target)
            #expect(try await setup.data.run(["export", target]).status == 0)
            #expect(try TodoFileSafetyTests.mode(target) == 0o640)
            #expect(try String(contentsOfFile: target, encoding: .utf8).contains("Buy milk"))
        }

        @Test func aSymbolicLinkIsRefusedAndItsTargetLeftAlone() async throws {
            let setup = try await Setup()
            let victim = setup.path("victim.txt")
            try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
            try FileManager.default.createSymbolicLink(atPath: setup.path("link.json"), withDestinationPath: victim)
            let run = try await setup.data.run(["export", setup.path("link.json")])
            #expect(run.status == 64)
            #expect(run.stderr == "rewind todo: \(setup.path("link.json")) is a symbolic link, not a regular file; it was left unchanged. Choose the path of a regular file or a new one.\n")
            #expect(try TodoFileSafetyTests.type(setup.path("link.json")) == .typeSymbolicLink)
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        }

        @Test func aDanglingSymbolicLinkIsRefused() async throws {
            let setup = try await Setup()
            try FileManager.default.createSymbolicLink(atPath: setup.path("link.json"), withDestinationPath: setup.path("nowhere"))
            let run = try await setup.data.run(["export", setup.path("link.json")])
            #expect(run.status == 64)
            #expect(run.stderr.contains("is a symbolic link, not a regular file"))
            #expect(!FileManager.default.fileExists(atPath: setup.path("nowhere")))
        }

        @Test func aFIFOIsRefusedAndStaysAFIFO() async throws {
            let setup = try await Setup()
            #expect(mkfifo(setup.path("pipe"), 0o600) == 0)
            let run = try await setup.data.run(["export", setup.path("pipe")])
            #expect(run.status == 64)
            #expect(run.stderr.contains("\(setup.path("pipe")) is a FIFO, not a regular file"))
            var status = stat()
            #expect(lstat(setup.path("pipe"), &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        }

        @Test func aDirectoryIsRefused() async throws {
            let setup = try await Setup()
            try FileManager.default.createDirectory(atPath: setup.path("folder"), withIntermediateDirectories: false)
            let run = try await setup.data.run(["export", setup.path("folder")])
            #expect(run.status == 64)
            #expect(run.stderr.contains("is a directory, not a regular file"))
            #expect(try TodoFileSafetyTests.type(setup.path("folder")) == .typeDirectory)
        }

        @Test func aFileWithOtherHardLinksIsRefusedAndTheLinksKeepTheirContent() async throws {
            let setup = try await Setup()
            try Data("precious\n".utf8).write(to: URL(fileURLWithPath: setup.path("original")))
            try FileManager.default.linkItem(atPath: setup.path("original"), toPath: setup.path("second.json"))
            let run = try await setup.data.run(["export", setup.path("second.json")])
            #expect(run.status == 64)
            #expect(run.stderr.contains("is a file with 2 hard links, not a regular file"))
            #expect(try String(contentsOfFile: setup.path("second.json"), encoding: .utf8) == "precious\n")
            let links = try FileManager.default.attributesOfItem(atPath: setup.path("original"))[.referenceCount] as? NSNumber
            #expect(links?.intValue == 2)
        }
    }

    @Suite("import reads at most 1 GiB; export says when it writes more")
    struct ImportLimit {
        @Test func fromAnEndlessFile() async throws {
            let directory = try TodoDirectory()
            try await directory.add("Buy milk")
            let before = try await directory.export()
            let run = try await directory.run(["import", "/dev/zero"])
            #expect(run.status == 64)
            #expect(run.stderr == "rewind todo: /dev/zero is larger than 1 GiB, the most `rewind todo import` reads; nothing was imported\n")
            #expect(try await directory.export() == before)
        }

        @Test func anExportOfAMistypedDataDirectoryWritesNothingAndKeepsTheBackupThere() async throws {
            let setup = try await Setup()
            let backup = setup.path("backup.json")
            let run = try await setup.data.run(["export", backup])
            #expect(run.status == 0, "\(run.stderr)")
            let saved = try String(contentsOfFile: backup, encoding: .utf8)
            let typo = setup.path("typo")
            for target in [backup, "-"] {
                let mistyped = try await runRewind(["todo", "export", target, "--data-dir", typo])
                #expect(mistyped.status == 1)
                #expect(mistyped.stderr.contains("typo does not exist, so it holds no list to export; nothing was written"), "\(mistyped.stderr)")
                #expect(mistyped.stdout.isEmpty)
            }
            #expect(try String(contentsOfFile: backup, encoding: .utf8) == saved)
            #expect(!FileManager.default.fileExists(atPath: typo))
        }
    }

    @Suite("data directory")
    struct DataDirectoryChoice {
        @Test func anEmptyDataDirIsRefused() async throws {
            let fallback = try TodoDirectory()
            let run = try await runRewind(["todo", "add", "Buy milk", "--data-dir", ""], environment: ["REWIND_DATA_DIR": fallback.url.path])
            #expect(run.status == 64)
            #expect(run.stderr.contains("--data-dir must name a folder; leave the option out to use the default data directory"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: fallback.url.path).isEmpty, "nothing was written to the default")
        }

        /// A mistyped --data-dir leaves nothing behind: reading it makes no folder.
        @Test func listingADataDirectoryThatDoesNotExistMakesNone() async throws {
            let folder = try TodoDirectory()
            let typo = folder.url.appendingPathComponent("todso").path
            let list = try await runRewind(["todo", "list", "--data-dir", typo])
            #expect(list.status == 0, "\(list.stderr)")
            #expect(list.stdout.contains("No items yet"), "\(list.stdout)")
            #expect(list.stdout.contains("(\(typo) does not exist yet; the first add makes it.)"), "\(list.stdout)")
            let json = try await runRewind(["todo", "list", "--json", "--data-dir", typo])
            let listing = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            #expect((listing?["items"] as? [Any])?.isEmpty == true, "\(json.stdout)")
            let users = try await runRewind(["users", "list", "--data-dir", typo])
            #expect(users.status == 0 && users.stdout.hasPrefix("No accounts yet"), "\(users.stdout)\(users.stderr)")
            // Every other command that changes nothing reads nothing there, and says so.
            for (arguments, status) in [
                (["todo", "history"], 0), (["todo", "undo"], 0), (["todo", "redo"], 0),
                (["todo", "show", "1"], 1),
            ] {
                let run = try await runRewind(arguments + ["--data-dir", typo])
                #expect(run.status == Int32(status), "\(arguments): \(run.stderr)")
                #expect(run.stderr.contains("\(typo) does not exist yet"), "\(arguments): \(run.stderr)")
            }
            for arguments in [["users", "rm", "bob", "--yes"], ["lists", "--as", "ann"], ["todo", "list", "--as", "ann", "--list", "x"]] {
                let run = try await runRewind(arguments + ["--data-dir", typo])
                #expect(run.status == 1, "\(arguments): \(run.stderr)")
                #expect(run.stderr.contains("no account"), "\(arguments): \(run.stderr)")
            }
            #expect(!FileManager.default.fileExists(atPath: typo), "the folder was made")
            // The first add makes it.
            #expect(try await runRewind(["todo", "add", "Buy milk", "--data-dir", typo]).status == 0)
            #expect(try await runRewind(["todo", "list", "--data-dir", typo]).stdout.contains("Buy milk"))
        }

        /// A folder whose name holds a control character is suggested in
        /// `$'…'`, escaped: shown, it does not act on the terminal, and a
        /// shell reads it back as the same name.
        @Test func aDataDirectoryWithAControlCharacterIsSuggestedEscaped() async throws {
            let folder = try TodoDirectory()
            let odd = folder.url.appendingPathComponent("x\u{1B}[2J it's").path
            let list = try await runRewind(["todo", "list", "--data-dir", odd])
            #expect(list.status == 0, "\(list.stderr)")
            #expect(!list.stdout.unicodeScalars.contains("\u{1B}"), "\(list.stdout)")
            #expect(list.stdout.contains(#"--data-dir $'"# + folder.url.path + #"/x\x1B[2J it\'s'"#), "\(list.stdout)")
            let echoed = try await runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", "printf %s " + #"$'"# + folder.url.path + #"/x\x1B[2J it\'s'"#])
            #expect(echoed.stdout == odd)
        }

        @Test func aDanglingSymbolicLinkIsNamedAsSuch() async throws {
            let folder = try TodoDirectory()
            let link = folder.url.appendingPathComponent("data").path
            let missing = folder.url.appendingPathComponent("gone").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: missing)
            let run = try await runRewind(["todo", "list", "--data-dir", link])
            #expect(run.status == 1)
            #expect(run.stderr == "rewind todo: Cannot create the data directory \(link): it is a symbolic link to \(missing), which does not exist; create that folder or choose another --data-dir.\n")
        }
    }
}
