import Foundation
import Testing

/// A full disk and a read-only data directory: changes are refused with a
/// sentence that says why, and the list can still be read.
@Suite("rewind todo on a full disk or a read-only directory", .enabled(if: Mount.canMount, "needs root and permission to mount"))
struct TodoStorageFailureTests {
    /// Fills the file system of `folder` with one file; returns the file.
    static func fill(_ folder: URL) throws -> URL {
        let filler = folder.appendingPathComponent("filler")
        _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        defer { try? handle.close() }
        let chunk = Data(count: 4096)
        while (try? handle.write(contentsOf: chunk)) != nil {}
        return filler
    }

    @Test func aFullDiskIsNamedAndReadsStillWork() async throws {
        let disk = try Mount.tmpfs(kilobytes: 1024)
        let data = disk.url.appendingPathComponent("data").path
        func run(_ arguments: [String]) async throws -> RewindRun {
            try await runRewind(["todo"] + arguments + ["--data-dir", data], environment: ["TZ": "UTC"])
        }
        #expect(try await run(["add", "Buy milk"]).status == 0)
        let filler = try Self.fill(disk.url)

        let add = try await run(["add", "Call Anna", "--details", String(repeating: "x", count: 20_000)])
        #expect(add.status == 1)
        #expect(add.stderr == "rewind todo: The change could not be saved: Cannot write \(data)/rewind.sqlite: the disk is full. Nothing was changed; free some space and try again.\n")

        let list = try await run(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Buy milk"))
        #expect(!list.stdout.contains("Call Anna"))
        #expect(list.stderr.hasPrefix("rewind todo: the numbers of this list could not be saved ("))
        #expect(list.stderr.hasSuffix("); refer to items by their ref instead\n"))
        #expect(try await run(["show", "1"]).status == 1, "a number from no saved list names nothing")
        #expect(try await run(["export"]).stdout.contains("Buy milk"))

        try FileManager.default.removeItem(at: filler)
        #expect(try await run(["add", "Call Anna"]).status == 0)
        #expect(try await run(["list"]).stdout.contains("Call Anna"))
    }

    @Test func aReadOnlyDataDirectoryCanBeReadNotChanged() async throws {
        let source = try TodoDirectory()
        try await source.add("Buy milk", ["--details", "Two litres"])
        _ = try await source.items()
        let view = try Mount.readOnly(source.url)
        func run(_ arguments: [String]) async throws -> RewindRun {
            try await runRewind(["todo"] + arguments + ["--data-dir", view.url.path], environment: ["TZ": "UTC"])
        }

        let list = try await run(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Buy milk"))
        let show = try await run(["show", "1"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("Two litres"))
        #expect(try await run(["history"]).stdout.contains("Buy milk"))
        #expect(try await run(["export"]).stdout.contains("Buy milk"))

        let add = try await run(["add", "Call Anna"])
        #expect(add.status == 1)
        #expect(add.stderr == "rewind todo: The change could not be saved: The data directory \(view.url.path) is read-only: the list can be shown and exported, not changed.\n")
        let undo = try await run(["undo"])
        #expect(undo.status == 1)
        #expect(undo.stderr.contains("is read-only"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs setpriv to run as another user"))
    func aDataDirectoryItsUserMayNotWriteToCanBeReadNotChanged() async throws {
        // Root may write any folder: the commands run as nobody, on nobody's folder.
        let directory = try TodoDirectory()
        try await directory.add("Buy milk")
        for path in [directory.url.path, directory.url.appendingPathComponent("rewind.sqlite").path] {
            try FileManager.default.setAttributes([.ownerAccountID: 65534, .groupOwnerAccountID: 65534], ofItemAtPath: path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.url.path) }
        func runAsNobody(_ arguments: [String]) async throws -> RewindRun {
            try await Self.runAsNobody(arguments, in: directory)
        }
        let list = try await runAsNobody(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Buy milk"))
        #expect(try await runAsNobody(["export"]).stdout.contains("Buy milk"))
        let add = try await runAsNobody(["add", "Call Anna"])
        #expect(add.status == 1)
        #expect(add.stderr == "rewind todo: The change could not be saved: The data directory \(directory.url.path) is read-only: the list can be shown and exported, not changed.\n")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs setpriv to run as another user"))
    func aLeftoverShmFileThatCannotBeWrittenIsNamed() async throws {
        // Root may write any file: the commands run as nobody, on nobody's folder.
        let directory = try TodoDirectory()
        try await directory.add("Buy milk")
        let shm = directory.url.appendingPathComponent("rewind.sqlite-shm").path
        try Data(count: 32768).write(to: URL(fileURLWithPath: shm))
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: shm)
        for path in [directory.url.path, directory.url.appendingPathComponent("rewind.sqlite").path, shm] {
            try FileManager.default.setAttributes([.ownerAccountID: 65534, .groupOwnerAccountID: 65534], ofItemAtPath: path)
        }
        func runAsNobody(_ arguments: [String]) async throws -> RewindRun {
            try await Self.runAsNobody(arguments, in: directory)
        }
        let list = try await runAsNobody(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Buy milk"))
        let add = try await runAsNobody(["add", "Call Anna"])
        #expect(add.status == 1)
        #expect(add.stderr == "rewind todo: The change could not be saved: \(shm) cannot be written (its permissions): the list can be shown and exported, not changed. A leftover -shm or -wal file can be removed when no Rewind is running.\n")
    }

    /// Runs `rewind todo arguments` on `directory` as the user nobody
    /// (65534), for whom the permissions of its files count (root's do not).
    private static func runAsNobody(_ arguments: [String], in directory: TodoDirectory) async throws -> RewindRun {
        try await runProcess(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=65534", "--regid=65534", "--clear-groups", try rewindBinaryURL().path, "todo"]
                + arguments + ["--data-dir", directory.url.path])
    }
}
