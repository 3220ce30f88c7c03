import Foundation
import TestSupport

/// What one run of the `rewind` binary did.
struct RewindRun {
    /// The exit status (or the signal number, if it was killed).
    let status: Int32
    /// Everything written on standard output.
    let stdout: String
    /// Everything written on standard error.
    let stderr: String

    /// Standard output without its final line break.
    var output: String {
        stdout.hasSuffix("\n") ? String(stdout.dropLast()) : stdout
    }

    /// The lines of standard output.
    var lines: [String] {
        output.isEmpty ? [] : output.components(separatedBy: "\n")
    }
}

/// Why the `rewind` binary could not be run.
struct RunRewindError: Error, CustomStringConvertible {
    let description: String
}

/// Runs the built `rewind` binary with `arguments`, feeding it `stdin`
/// (nothing, and not a terminal, when `nil`), and returns what it did.
///
/// The binary is looked for where SwiftPM puts products: next to the test
/// bundle, or in its parent directory. `REWIND_BINARY` overrides the search.
///
/// - Parameters:
///   - environment: Variables added to this process's environment.
///   - timeout: Seconds after which the process is terminated.
func runRewind(
    _ arguments: [String],
    stdin: String? = nil,
    environment: [String: String] = [:],
    timeout: TimeInterval = 30
) async throws -> RewindRun {
    try await runProcess(try rewindBinaryURL(), arguments, stdin: stdin, environment: environment, timeout: timeout)
}

/// Runs the executable at `url` as ``runRewind(_:stdin:environment:timeout:)`` does.
func runProcess(
    _ url: URL,
    _ arguments: [String],
    stdin: String? = nil,
    environment: [String: String] = [:],
    timeout: TimeInterval = 30
) async throws -> RewindRun {
    // Files rather than pipes: a full pipe cannot block the child.
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("rewind-run-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let inputURL = directory.appendingPathComponent("stdin")
    let outputURL = directory.appendingPathComponent("stdout")
    let errorURL = directory.appendingPathComponent("stderr")
    try Data((stdin ?? "").utf8).write(to: inputURL)
    for url in [outputURL, errorURL] {
        try Data().write(to: url)
    }

    let input = try FileHandle(forReadingFrom: inputURL)
    let output = try FileHandle(forWritingTo: outputURL)
    let error = try FileHandle(forWritingTo: errorURL)
    defer {
        try? input.close()
        try? output.close()
        try? error.close()
    }
    let status = try await ProcessSlots.shared.withSlot {
        let child = try ChildProcess(
            url, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            standardInput: .handle(input), standardOutput: .handle(output), standardError: .handle(error))
        try await child.exited("\(url.lastPathComponent) \(arguments)", timeout: .seconds(timeout))
        return child.terminationStatus
    }
    return RewindRun(
        status: status,
        stdout: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
        stderr: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self)
    )
}

/// How many programs the tests run at once: as many as there are
/// processors. Waiting for a program holds no thread, so without a bound
/// every test of this module would start its program at the same moment,
/// and the tests of other modules running beside them (servers with
/// one-second timeouts) would wait for the processors.
actor ProcessSlots {
    /// The one bound for the whole test run.
    static let shared = ProcessSlots(ProcessInfo.processInfo.activeProcessorCount)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    private init(_ count: Int) {
        free = max(count, 1)
    }

    /// Runs `body` when fewer than the bound of programs run, counting it
    /// as one until it returns.
    func withSlot<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        if free > 0 {
            free -= 1
        } else {
            // The slot is handed over by the one that frees it.
            await withCheckedContinuation { waiting.append($0) }
        }
        defer {
            if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
        }
        return try await body()
    }
}

/// Where the built `rewind` binary is.
func rewindBinaryURL() throws -> URL {
    let fileManager = FileManager.default
    if let override = ProcessInfo.processInfo.environment["REWIND_BINARY"] {
        return URL(fileURLWithPath: override)
    }
    var directories: [URL] = []
    // On Linux the test bundle is an executable in the products directory;
    // on macOS it is a bundle there.
    directories.append(Bundle.main.bundleURL)
    if let executable = Bundle.main.executableURL {
        directories.append(executable.deletingLastPathComponent())
    }
    if let first = CommandLine.arguments.first {
        directories.append(URL(fileURLWithPath: first).deletingLastPathComponent())
    }
    directories += Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }
        .map { $0.deletingLastPathComponent() }
    let candidates = directories.flatMap { [$0, $0.deletingLastPathComponent()] }
        .map { $0.appendingPathComponent("rewind") }
    if let found = candidates.first(where: { fileManager.isExecutableFile(atPath: $0.path) }) {
        return found
    }
    let searched = Set(candidates.map { $0.deletingLastPathComponent().path }).sorted()
    throw RunRewindError(description: "no built rewind binary in \(searched.joined(separator: ", ")); run `swift build --product rewind` or set REWIND_BINARY")
}
