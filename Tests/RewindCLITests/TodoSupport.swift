import Foundation
import Testing

/// A temporary data directory for `rewind todo`, removed when the value goes
/// away; every run passes `--data-dir` so the real one is never touched.
final class TodoDirectory: @unchecked Sendable {
    /// The directory.
    let url: URL

    /// Creates an empty temporary directory (not yet a data directory).
    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("rewind-todo-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The option every run passes, as the CLI repeats it in the commands
    /// it suggests: ` --data-dir DIR`.
    var again: String { " --data-dir " + url.path }

    /// Runs `rewind todo ARGUMENTS --data-dir DIR` in the UTC time zone.
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) async throws -> RewindRun {
        try await runRewind(
            ["todo"] + arguments + ["--data-dir", url.path], stdin: stdin,
            environment: ["TZ": "UTC"].merging(environment) { $1 })
    }

    /// Runs `rewind todo ARGUMENTS` and expects it to succeed quietly.
    @discardableResult
    func succeed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> RewindRun {
        let run = try await run(arguments)
        #expect(run.status == 0, "rewind todo \(arguments): \(run.stderr)", sourceLocation: sourceLocation)
        return run
    }

    /// Adds an item titled `title` (with more options) and returns its short reference.
    @discardableResult
    func add(_ title: String, _ options: [String] = []) async throws -> String {
        let run = try await succeed(["add", title] + options + ["--json"])
        return try Self.object(run.stdout)["ref"] as? String ?? ""
    }

    /// The items as `list --json` prints them (which also numbers them for later commands).
    func items(_ options: [String] = []) async throws -> [[String: Any]] {
        let run = try await succeed(["list", "--json"] + options)
        return try Self.object(run.stdout)["items"] as? [[String: Any]] ?? []
    }

    /// The titles of the items, in list order.
    func titles(_ options: [String] = []) async throws -> [String] {
        try await items(options).compactMap { $0["title"] as? String }
    }

    /// The whole state as `export` writes it.
    func export() async throws -> String {
        try await succeed(["export"]).stdout
    }

    /// Parses a JSON object.
    static func object(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }
}

/// An export document holding `items` (id, title, and optionally state), for
/// imports; with `earlierWords`, as version 1 wrote it (`unfinished`, `finished`).
func todoDocument(_ items: [(id: String, title: String)], completed: Set<String> = [], earlierWords: Bool = false) -> String {
    let entries = items.map { item in
        let state = switch (completed.contains(item.id), earlierWords) {
        case (true, false): "completed"
        case (false, false): "active"
        case (true, true): "finished"
        case (false, true): "unfinished"
        }
        return #"{"id":"\#(item.id)","title":"\#(item.title)","state":"\#(state)","created":"2026-01-01T10:00:00.000Z"}"#
    }
    return #"{"format":"rewind-todos","version":\#(earlierWords ? 1 : 2),"items":[\#(entries.joined(separator: ","))]}"#
}
