import Foundation
import Testing

/// `rewind serve` starts before it has read every page of its file, and
/// still refuses a damaged one: it stops with status 1 and a line that names
/// the file, and writes nothing to it.
@Suite("rewind serve and a damaged file")
struct ServeDamageTests {
    @Test func aDamagedFileStopsTheServerWithALineThatNamesItAndIsLeftUnchanged() async throws {
        let directory = try TodoDirectory()
        let items = (0..<300).map { index in
            ["id": UUID().uuidString, "title": "Item \(index) " + String(repeating: "x", count: 200),
             "created": "2026-01-01T00:00:00.000Z"]
        }
        let document = try JSONSerialization.data(withJSONObject: ["format": "rewind-todos", "version": 1, "items": items])
        let file = directory.url.appendingPathComponent("items.json")
        try document.write(to: file)
        try await directory.succeed(["import", file.path])
        let database = directory.url.appendingPathComponent("rewind.sqlite")
        // Scribble over the middle of the file: item pages, not the schema.
        var bytes = try Data(contentsOf: database)
        let start = bytes.count / 2
        for offset in start..<(start + 4096) { bytes[offset] = 0x5A }
        try bytes.write(to: database)

        let run = try await runRewind(["serve", "--port", "0", "--data-dir", directory.url.path], timeout: 60)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        // The web server's own shutdown may log after it, from its threads.
        let line = run.stderr.split(separator: "\n").map(String.init).last { $0.hasPrefix("rewind serve: ") } ?? ""
        #expect(line.hasPrefix("rewind serve: \(database.path)"), "\(run.stderr)")
        #expect(line.contains("is damaged") || line.contains("not a"), "\(run.stderr)")
        #expect(try Data(contentsOf: database) == bytes, "nothing was written")
    }
}
