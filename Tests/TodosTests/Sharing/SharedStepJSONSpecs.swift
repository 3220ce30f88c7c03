import Foundation
import Testing

@testable import Todos

@Suite("A shared list's log as JSON")
struct SharedStepJSONSpecs {
    /// A log with a change of every kind, an undo that left a part alone, a
    /// restored delete and a redo.
    static func busyLog() throws -> SharedList {
        var shared = try Sharing.list(["Milk", "Bread", "Eggs"])
        try Sharing.rename(0, to: "Oat milk", by: "ann", in: &shared)
        try Sharing.rename(0, to: "Soy milk", by: "bob", in: &shared)
        try shared.perform([.remove(Sharing.id(1))], named: "Delete “Bread”", by: "ann", at: Sharing.later)
        try shared.perform([.move(Sharing.id(2), to: 0)], named: "Move “Eggs”", by: "bob", at: Sharing.later)
        try shared.undo(by: "ann", at: Sharing.later)
        try shared.undo(by: "ann", at: Sharing.later)
        try shared.redo(by: "ann", at: Sharing.later)
        return shared
    }

    @Test func everyRowReadsBackEqual() throws {
        let shared = try Self.busyLog()

        let data = try TodoJSON.encode(shared.log)
        let read = try TodoJSON.decode([SharedStep].self, from: data)

        #expect(read == shared.log)
        #expect(read.contains { !$0.skipped.isEmpty })
    }

    @Test func theLogReadBackReplaysToTheListWithEachPersonsNextSteps() throws {
        let shared = try Self.busyLog()

        let replayed = try SharedList(replaying: TodoJSON.decode([SharedStep].self, from: TodoJSON.encode(shared.log)))

        #expect(replayed.list == shared.list)
        for person in ["ann", "bob"] {
            #expect(try replayed.nextUndo(of: person)?.seq == shared.nextUndo(of: person)?.seq)
            #expect(try replayed.nextRedo(of: person)?.seq == shared.nextRedo(of: person)?.seq)
        }
    }

    @Test func aRowOfAnUnknownKindIsRefusedNamingTheKindsAllowed() throws {
        let row = #"{"seq":1,"author":"ann","name":"x","kind":"jump","changes":[],"patch":[],"skipped":[]}"#

        let error = #expect(throws: TodoJSONError.self) { try TodoJSON.decode(SharedStep.self, from: Data(row.utf8)) }

        #expect(error.map { "\($0)" }?.contains("change, undo, redo") == true)
    }
}
