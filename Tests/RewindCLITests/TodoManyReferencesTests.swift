import Foundation
import Testing

/// Thousands of references on one command line: each is found, in order,
/// among options anywhere on the line; one unknown reference changes nothing.
/// (The argument parser once spent seconds storing them, and each was
/// searched for in the whole list.)
@Suite("rewind todo with many references")
struct TodoManyReferencesTests {
    static let count = 300

    func directory() async throws -> (TodoDirectory, [String]) {
        let directory = try TodoDirectory()
        let items = (0..<Self.count).map { index in
            #"{"id":"\#(String(format: "00000000-0000-4000-8000-%012x", index + 1))","title":"Item \#(index)","created":"2026-01-01T10:00:00.000Z"}"#
        }
        let document = #"{"format":"rewind-todos","version":1,"items":[\#(items.joined(separator: ","))]}"#
        #expect(try await directory.run(["import", "-"], stdin: document).status == 0)
        let ids = (0..<Self.count).map { String(format: "000000000000400080000%011x", $0 + 1) }
        return (directory, ids)
    }

    @Test func rmWithOptionsAmongTheReferences() async throws {
        let (directory, ids) = try await directory()
        let run = try await directory.run(["rm"] + ids.prefix(150) + ["--json"] + ids[150..<299])
        #expect(run.status == 0, "\(run.stderr)")
        let removed = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
        #expect(removed?.count == 299)
        #expect(try await directory.titles() == ["Item 299"])
        try await directory.succeed(["undo"])
        #expect(try await directory.titles().count == Self.count)
    }

    @Test func doneWithManyReferencesAndAnUnknownOneChangesNothing() async throws {
        let (directory, ids) = try await directory()
        let before = try await directory.export()
        let run = try await directory.run(["done"] + ids.prefix(200) + ["ffff0000"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("no item matches “ffff0000”"), "\(run.stderr)")
        #expect(try await directory.export() == before)
        #expect(try await directory.run(["done"] + ids.prefix(200)).status == 0)
        #expect(try await directory.items(["--completed"]).count == 200)
    }
}
