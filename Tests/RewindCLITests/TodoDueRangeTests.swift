import Foundation
import Testing

/// Due dates far away are refused where they enter, with exit status 64 and
/// a line that says what is allowed, and the list stays readable (each of
/// these once killed the process, or was saved and then locked the store).
@Suite("rewind todo due dates out of range")
struct TodoDueRangeTests {
    static let farDueTexts = [
        "in 999999999999999 days",
        "in 9223372036854775807 weeks",
        "2026-12-01 for 9223372036854775807 weeks",
        "in 3000000 days",
        "9999-12-31..9999-12-31",
    ]

    @Test("add and edit refuse them", arguments: farDueTexts)
    func addAndEditRefuse(text: String) async throws {
        let directory = try TodoDirectory()
        try await directory.add("Buy milk")
        _ = try await directory.items()
        let before = try await directory.export()
        for arguments in [["add", "x", "--due", text], ["edit", "1", "--due", text]] {
            let run = try await directory.run(arguments)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("9999"), "\(run.stderr)")
        }
        #expect(try await directory.export() == before)
        #expect(try await directory.titles() == ["Buy milk"])
        try await directory.succeed(["undo"])
        #expect(try await directory.titles().isEmpty)
    }

    @Test func anImportWithADateOutOfRangeIsRefused() async throws {
        let directory = try TodoDirectory()
        try await directory.add("Buy milk")
        let before = try await directory.export()
        for date in ["0000-01-01T00:00:00+23:59", "9999-12-31T23:59:59.999-23:59", "10240-01-01T00:00:00.000Z"] {
            let document = #"{"format":"rewind-todos","version":1,"items":[{"id":"00000000-0000-4000-8000-000000000001","title":"A","created":"2026-01-01T00:00:00Z","due":{"kind":"date","date":"\#(date)"}}]}"#
            let run = try await directory.run(["import", "-"], stdin: document)
            #expect(run.status == 64, "\(date): \(run.stderr)")
            #expect(run.stderr.contains("items[0].due.date"), "\(run.stderr)")
            #expect(run.stderr.contains("9999-12-31"), "\(run.stderr)")
        }
        #expect(try await directory.export() == before)
    }
}
