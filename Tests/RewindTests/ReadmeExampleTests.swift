import Foundation
import Testing
import Rewind

// The engine example of README.md, word for word between the markers, so that
// it is compiled and run with the tests. `readmeShowsThisExample` fails when
// the two drift apart.
// README-EXAMPLE-BEGIN
struct Shopping: Reversible {
    enum Change: Codable {
        case insert(String, at: Int)
        case remove(at: Int)
    }

    struct NoSuchPosition: Error {
        let position: Int
    }

    private(set) var items: [String] = []

    // Applying a change returns the change that reverts it.
    mutating func apply(_ change: Change) throws -> Change {
        switch change {
        case .insert(let item, let position):
            guard (0...items.count).contains(position) else { throw NoSuchPosition(position: position) }
            items.insert(item, at: position)
            return .remove(at: position)
        case .remove(let position):
            guard items.indices.contains(position) else { throw NoSuchPosition(position: position) }
            return .insert(items.remove(at: position), at: position)
        }
    }
}

func shop() throws -> History<Shopping> {
    let history = History(Shopping())
    try history.perform(.insert("Buy milk", at: 0), named: "Add “Buy milk”")
    try history.perform(.insert("Buy eggs", at: 1), named: "Add “Buy eggs”")
    try history.perform(.remove(at: 0), named: "Delete “Buy milk”")
    print(history.undoTitle)    // Undo Delete “Buy milk”
    try history.undo()          // “Buy milk” is back, at its old position
    try history.jump(to: 0)     // back to the empty list
    try history.redo()          // ["Buy milk"]
    return history
}
// README-EXAMPLE-END

@Suite("README example")
struct ReadmeExampleTests {
    @Test func theExampleRunsAsItsCommentsSay() throws {
        let history = try shop()
        #expect(history.model.items == ["Buy milk"])
        #expect(history.redoTitle == "Redo Add “Buy eggs”")
        #expect(history.steps.map(\.name) == ["Add “Buy milk”", "Add “Buy eggs”", "Delete “Buy milk”"])
    }

    @Test func readmeShowsThisExample() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let example = try #require(markedRegions(named: "README-EXAMPLE", in: source).first).text
        #expect(readme.contains(example), "README.md must show the example of ReadmeExampleTests.swift word for word")
    }
}
