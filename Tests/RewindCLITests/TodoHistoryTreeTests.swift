import Foundation
import Testing

/// `rewind todo history --all` lists the branches that a change after an
/// undo left, and `history jump --all N` returns to any of them.
@Suite("rewind todo history --all")
struct TodoHistoryTreeTests {
    @Test func aBranchLeftByAChangeAfterAnUndoIsListedAndReachable() async throws {
        let directory = try TodoDirectory()
        try await directory.add("Buy milk")
        try await directory.add("Call Anna")
        try await directory.succeed(["undo"])
        try await directory.add("Pay rent")
        // What the user sees is linear: the undone step is gone from it.
        let history = try await TodoDirectory.object(try directory.succeed(["history", "--json"]).stdout)
        let shown = try #require(history["steps"] as? [[String: Any]])
        #expect(shown.compactMap { $0["name"] as? String } == ["Add “Buy milk”", "Add “Pay rent”"])
        #expect(history["position"] as? Int == 2)

        let tree = try await TodoDirectory.object(try directory.succeed(["history", "--all", "--json"]).stdout)
        let steps = try #require(tree["steps"] as? [[String: Any]])
        #expect(steps.compactMap { $0["name"] as? String } == ["Add “Buy milk”", "Add “Call Anna”", "Add “Pay rent”"])
        #expect(steps.compactMap { $0["branch"] as? String } == ["done", "abandoned", "done"])
        let callAnna = try #require(steps[1]["number"] as? Int)
        #expect(steps[1]["parent"] as? Int == steps[0]["number"] as? Int)

        let text = try await directory.succeed(["history", "--all"]).lines
        // Call Anna was made after the row above it; Pay rent, after step 1, says so.
        #expect(text.contains { $0.contains("Add “Call Anna”") && $0.hasSuffix("(abandoned)") })
        #expect(text.contains { $0.contains("Add “Pay rent”") && $0.hasSuffix("(after 1)") })

        #expect(try await directory.succeed(["history", "jump", "--all", String(callAnna)]).stdout == "At step \(callAnna): Add “Call Anna”\n")
        #expect(try await directory.titles() == ["Buy milk", "Call Anna"])
        try await directory.succeed(["undo"])
        #expect(try await directory.titles() == ["Buy milk"])
        try await directory.succeed(["redo"])
        #expect(try await directory.titles() == ["Buy milk", "Call Anna"])
    }

    @Test func aStepThatIsNotThereIsRefusedAndNothingChanges() async throws {
        let directory = try TodoDirectory()
        try await directory.add("Buy milk")
        let before = try await directory.export()
        let run = try await directory.run(["history", "jump", "--all", "42"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("there is no step 42"))
        #expect(try await directory.export() == before)
    }
}
