import Foundation
import TestSupport

/// A file system mounted for one test (a small tmpfs, or a read-only view of
/// a folder), unmounted when the value goes away. Mounting needs root and a
/// kernel that lets this process mount; tests that need it are enabled only
/// where ``canMount`` is true.
final class Mount: @unchecked Sendable {
    /// Where the file system is mounted.
    let url: URL

    private init(url: URL) {
        self.url = url
    }

    deinit {
        _ = try? Self.run(["umount", url.path])
        try? FileManager.default.removeItem(at: url)
    }

    /// A tmpfs of `kilobytes` at a new temporary folder.
    static func tmpfs(kilobytes: Int) throws -> Mount {
        let url = try newFolder()
        try run(["mount", "-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", url.path])
        return Mount(url: url)
    }

    /// A read-only view of `source` at a new temporary folder.
    static func readOnly(_ source: URL) throws -> Mount {
        let url = try newFolder()
        try run(["mount", "--bind", source.path, url.path])
        let mount = Mount(url: url)
        try run(["mount", "-o", "remount,bind,ro", url.path])
        return mount
    }

    /// Whether this process can mount file systems (as root in a privileged container).
    static let canMount: Bool = {
        guard geteuid() == 0, (try? tmpfs(kilobytes: 64)) != nil else { return false }
        return true
    }()

    private static func newFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rewind-mount-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `mount` or `umount` and waits for it, blocking the thread: it
    /// takes milliseconds, and a deinitializer and the `canMount` trait
    /// cannot wait otherwise.
    private static func run(_ arguments: [String]) throws {
        let error = Pipe()
        let process: ChildProcess
        do {
            defer { try? error.fileHandleForWriting.close() }
            process = try ChildProcess(
                URL(fileURLWithPath: "/usr/bin/env"), arguments,
                standardOutput: .null, standardError: .handle(error.fileHandleForWriting))
        }
        let said = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw RunRewindError(description: "\(arguments.joined(separator: " ")) failed: \(String(decoding: said, as: UTF8.self))")
        }
    }
}
