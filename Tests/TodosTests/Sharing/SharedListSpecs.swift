import Foundation
import Testing

@testable import Todos

/// Items, dates and people for the shared-list specifications.
enum Sharing {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let later = start.addingTimeInterval(60)

    static func id(_ n: Int) -> UUID {
        UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, UInt8(n / 256), UInt8(n % 256)))
    }

    static func item(_ title: String, _ n: Int) throws -> TodoItem {
        try TodoItem(id: id(n), title: title, created: start)
    }

    /// A list that ann made of these titles, one add each.
    static func list(_ titles: [String], by author: String = "ann") throws -> SharedList {
        var shared = SharedList()
        for (n, title) in titles.enumerated() {
            try shared.perform([.add(item(title, n))], named: "Add “\(title)”", by: author, at: Sharing.later)
        }
        return shared
    }

    static func rename(_ n: Int, to title: String, by author: String, in shared: inout SharedList) throws {
        try shared.perform([.update(id(n), [.title(to: title)], at: later)], named: "Rename", by: author, at: Sharing.later)
    }

    static func titles(_ shared: SharedList) -> [String] {
        shared.list.items.map(\.title)
    }
}

@Suite("A shared list: each person's Undo takes back their own change")
struct SharedListSpecs {
    @Suite("rename against complete")
    struct RenameAgainstComplete {
        @Test func undoingMyRenameKeepsTheCompletionAnotherMadeSince() throws {
            var shared = try Sharing.list(["Milk"])
            try Sharing.rename(0, to: "Oat milk", by: "ann", in: &shared)
            try shared.perform([.update(Sharing.id(0), [.complete], at: Sharing.later)], named: "Complete", by: "bob", at: Sharing.later)

            let undo = try shared.undo(by: "ann", at: Sharing.later)

            let milk = try #require(shared.list[id: Sharing.id(0)])
            #expect(milk.title == "Milk")
            #expect(milk.isCompleted)
            #expect(undo.messages.isEmpty)
        }
    }

    @Suite("rename against rename")
    struct RenameAgainstRename {
        @Test func myUndoLeavesTheLaterRenameOfAnotherAndSaysWho() throws {
            var shared = try Sharing.list(["Milk"])
            try Sharing.rename(0, to: "Oat milk", by: "ann", in: &shared)
            try Sharing.rename(0, to: "Soy milk", by: "bob", in: &shared)

            let undo = try shared.undo(by: "ann", at: Sharing.later)

            #expect(Sharing.titles(shared) == ["Soy milk"])
            #expect(undo.messages == ["Could not undo the rename of “Milk”: bob renamed it since."])

            // Bob reads of his rename as his.
            #expect(undo.summary.messages(for: "bob") == ["Could not undo the rename of “Milk”: you renamed it since."])
            #expect(undo.summary.messages(for: "cem") == undo.messages)

            // The redo of that undo puts nothing back, and says so.
            let redo = try shared.redo(by: "ann", at: Sharing.later)
            #expect(Sharing.titles(shared) == ["Soy milk"])
            #expect(redo.messages == [SharedStep.nothingToPutBack])
            // And the undo of that redo takes nothing back, and says so too.
            let again = try shared.undo(by: "ann", at: Sharing.later)
            #expect(Sharing.titles(shared) == ["Soy milk"])
            #expect(again.messages == [SharedStep.nothingToTakeBack])
        }

        @Test func theSkippedStepStillCountsSoTheNextUndoIsTheOneBefore() throws {
            var shared = try Sharing.list(["Milk"])
            try Sharing.rename(0, to: "Oat milk", by: "ann", in: &shared)
            try Sharing.rename(0, to: "Soy milk", by: "bob", in: &shared)

            try shared.undo(by: "ann", at: Sharing.later)

            #expect(try shared.nextUndo(of: "ann")?.seq == 1)
            #expect(try shared.nextUndo(of: "bob")?.seq == 3)
        }

        @Test func myRedoDoesNotOverwriteTheirRenameEither() throws {
            var shared = try Sharing.list(["Milk"])
            try Sharing.rename(0, to: "Oat milk", by: "ann", in: &shared)
            try Sharing.rename(0, to: "Soy milk", by: "bob", in: &shared)
            try shared.undo(by: "ann", at: Sharing.later)

            try shared.redo(by: "ann", at: Sharing.later)

            #expect(Sharing.titles(shared) == ["Soy milk"])
        }
    }

    @Suite("delete while another edits the neighbours")
    struct DeleteAgainstNeighbours {
        @Test func theItemComesBackAfterItsNearestSurvivingNeighbourWithItsIDAndFields() throws {
            var shared = try Sharing.list(["A", "B", "C", "D"])
            try shared.perform([.update(Sharing.id(2), [.details(to: "two"), .complete], at: Sharing.later)], named: "Edit", by: "ann", at: Sharing.later)
            let before = try #require(shared.list[id: Sharing.id(2)])
            try shared.perform([.remove(Sharing.id(2))], named: "Delete “C”", by: "ann", at: Sharing.later)
            try shared.perform([.remove(Sharing.id(1))], named: "Delete “B”", by: "bob", at: Sharing.later)
            try shared.perform([.move(Sharing.id(3), to: 0)], named: "Move “D”", by: "bob", at: Sharing.later)

            let undo = try shared.undo(by: "ann", at: Sharing.later)

            #expect(Sharing.titles(shared) == ["D", "A", "C"])
            #expect(shared.list[id: Sharing.id(2)] == before)
            #expect(undo.messages.isEmpty)
        }

        @Test func anItemWhoseNeighboursAreAllGoneComesBackFirst() throws {
            var shared = try Sharing.list(["A", "B"])
            try shared.perform([.remove(Sharing.id(1))], named: "Delete “B”", by: "ann", at: Sharing.later)
            try shared.perform([.remove(Sharing.id(0))], named: "Delete “A”", by: "bob", at: Sharing.later)
            try shared.perform([.add(Sharing.item("Z", 9))], named: "Add “Z”", by: "bob", at: Sharing.later)

            try shared.undo(by: "ann", at: Sharing.later)

            #expect(Sharing.titles(shared) == ["B", "Z"])
        }

        @Test func undoingMyEditOfAnItemAnotherDeletedSaysSoAndChangesNothing() throws {
            var shared = try Sharing.list(["Milk"], by: "bob")
            try Sharing.rename(0, to: "Oat milk", by: "ann", in: &shared)
            try shared.perform([.remove(Sharing.id(0))], named: "Delete", by: "bob", at: Sharing.later)

            let undo = try shared.undo(by: "ann", at: Sharing.later)

            #expect(shared.list.isEmpty)
            #expect(undo.messages == ["Could not undo the change of “Milk”: bob deleted it since."])
        }
    }

    @Suite("undo of an add after another's edit")
    struct UndoOfAddAfterEdit {
        @Test func theItemIsKeptAndThePersonIsTold() throws {
            var shared = try Sharing.list(["Milk"])
            try shared.perform([.update(Sharing.id(0), [.complete], at: Sharing.later)], named: "Complete", by: "bob", at: Sharing.later)

            let undo = try shared.undo(by: "ann", at: Sharing.later)

            #expect(Sharing.titles(shared) == ["Milk"])
            #expect(undo.messages == ["Kept “Milk”: bob changed it since."])
            #expect(try shared.nextUndo(of: "ann") == nil)
        }

        @Test func anAddNobodyElseTouchedIsRemoved() throws {
            var shared = try Sharing.list(["Milk"])
            try shared.perform([.add(Sharing.item("Bread", 5))], named: "Add", by: "bob", at: Sharing.later)

            try shared.undo(by: "ann", at: Sharing.later)

            #expect(Sharing.titles(shared) == ["Bread"])
        }
    }

    @Suite("redo kept when others change the list")
    struct RedoKept {
        @Test func othersChangesDoNotClearMyRedo() throws {
            var shared = try Sharing.list(["Milk", "Bread"])
            try Sharing.rename(0, to: "Oat milk", by: "ann", in: &shared)
            try shared.undo(by: "ann", at: Sharing.later)
            try shared.perform([.update(Sharing.id(1), [.complete], at: Sharing.later)], named: "Complete", by: "bob", at: Sharing.later)
            try shared.perform([.add(Sharing.item("Eggs", 7))], named: "Add", by: "bob", at: Sharing.later)

            try shared.redo(by: "ann", at: Sharing.later)

            #expect(Sharing.titles(shared) == ["Oat milk", "Bread", "Eggs"])
            #expect(shared.list[id: Sharing.id(1)]?.isCompleted == true)
        }

        @Test func myOwnNewChangeClearsMyRedoButNotTheirs() throws {
            var shared = try Sharing.list(["Milk"])
            try Sharing.rename(0, to: "Oat milk", by: "ann", in: &shared)
            try shared.perform([.add(Sharing.item("Eggs", 7))], named: "Add", by: "bob", at: Sharing.later)
            try shared.undo(by: "ann", at: Sharing.later)
            try shared.undo(by: "bob", at: Sharing.later)

            try shared.perform([.add(Sharing.item("Tea", 8))], named: "Add", by: "ann", at: Sharing.later)

            #expect(try shared.nextRedo(of: "ann") == nil)
            #expect(try shared.nextRedo(of: "bob") != nil)
        }
    }

    @Suite("a double-clicked Undo")
    struct DoubleClick {
        @Test func undoesOneStepOnlyAndTheSecondClickChangesNothing() throws {
            var shared = try Sharing.list(["Milk", "Bread"])
            let named = try #require(try shared.nextUndo(of: "ann")).seq

            try shared.undo(by: "ann", at: Sharing.later, expecting: named)
            let rows = shared.log.count
            #expect(throws: SharingError.notTheNextStep(asked: named, next: 1)) {
                try shared.undo(by: "ann", at: Sharing.later, expecting: named)
            }

            #expect(Sharing.titles(shared) == ["Milk"])
            #expect(shared.log.count == rows)
        }

        @Test func withNothingOfTheirOwnAPersonIsToldSo() throws {
            var shared = try Sharing.list(["Milk"])
            #expect(throws: SharingError.nothingToUndo(author: "bob")) { try shared.undo(by: "bob", at: Sharing.later) }
            #expect(throws: SharingError.nothingToRedo(author: "ann")) { try shared.redo(by: "ann", at: Sharing.later) }
            #expect(Sharing.titles(shared) == ["Milk"])
        }
    }

    @Suite("complete all against a reopen")
    struct CompleteAll {
        @Test func undoingMyCompleteAllLeavesTheItemAnotherTouchedSince() throws {
            var shared = try Sharing.list(["Milk", "Bread"])
            try shared.perform([.completeAll(at: Sharing.later)], named: "Complete all", by: "ann", at: Sharing.later)
            try shared.perform([.update(Sharing.id(0), [.reopen], at: Sharing.later)], named: "Reopen", by: "bob", at: Sharing.later)
            try shared.perform([.update(Sharing.id(0), [.complete], at: Sharing.later)], named: "Complete", by: "bob", at: Sharing.later)

            let undo = try shared.undo(by: "ann", at: Sharing.later)

            #expect(shared.list.items.map(\.isCompleted) == [true, false])
            #expect(undo.messages == ["Could not undo the change of the state of “Milk”: bob completed it since."])
        }
    }

    @Suite("coalescing is per person")
    struct Coalescing {
        static func type(_ title: String, after seconds: Double, by author: String, in shared: inout SharedList) throws {
            try shared.perform(
                [.update(Sharing.id(0), [.title(to: title)], at: Sharing.later)], named: "Rename “Milk”", by: author,
                at: Sharing.later.addingTimeInterval(seconds), coalescingKey: "title")
        }

        @Test func typingIsOneStepEvenWhenAnotherChangesTheListMeanwhile() throws {
            var shared = try Sharing.list(["Milk"])
            try Self.type("M", after: 0, by: "ann", in: &shared)
            try shared.perform([.add(Sharing.item("Bread", 5))], named: "Add", by: "bob", at: Sharing.later)
            try Self.type("Mi", after: 0.2, by: "ann", in: &shared)
            try Self.type("Mil", after: 0.4, by: "ann", in: &shared)

            let undo = try shared.undo(by: "ann", at: Sharing.later)

            #expect(Sharing.titles(shared) == ["Milk", "Bread"])
            #expect(undo.name == "Rename “Milk”")
            #expect(try shared.nextUndo(of: "ann")?.seq == 1)
            try shared.redo(by: "ann", at: Sharing.later)
            #expect(Sharing.titles(shared) == ["Mil", "Bread"])
        }

        @Test func aPauseLongerThanTheWindowStartsANewStep() throws {
            var shared = try Sharing.list(["Milk"])
            try Self.type("M", after: 0, by: "ann", in: &shared)
            try Self.type("Mi", after: 2, by: "ann", in: &shared)

            try shared.undo(by: "ann", at: Sharing.later)

            #expect(Sharing.titles(shared) == ["M"])
        }

        @Test func anotherPersonsChangeWithTheSameKeyNeverJoinsMyStep() throws {
            var shared = try Sharing.list(["Milk"])
            try Self.type("M", after: 0, by: "ann", in: &shared)
            try Self.type("Bo", after: 0.1, by: "bob", in: &shared)

            let undo = try shared.undo(by: "ann", at: Sharing.later)

            #expect(Sharing.titles(shared) == ["Bo"])
            #expect(undo.messages == ["Could not undo the rename of “Milk”: bob renamed it since."])
            #expect(try shared.nextUndo(of: "bob")?.seq == 3)
        }
    }

    @Test func aStepWithARefusedChangeLeavesTheListItsLogAndTheStacksAsTheyWere() throws {
        var shared = try Sharing.list(["Milk", "Bread"])
        try shared.perform([.move(Sharing.id(1), to: 0)], named: "Move", by: "bob", at: Sharing.later)
        let before = shared
        // The first three apply (the list changes in place), the last is refused.
        #expect(throws: SharingError.self) {
            try shared.perform(
                [.add(try Sharing.item("Eggs", 2)), .update(Sharing.id(0), [.complete], at: Sharing.later),
                 .move(Sharing.id(0), to: 0), .remove(Sharing.id(9))],
                named: "Several", by: "ann", at: Sharing.later)
        }
        #expect(shared.list == before.list)
        #expect(shared.list.items.map(\.title) == ["Bread", "Milk"])
        #expect(shared.list.completedCount == 0)
        #expect(shared.log == before.log)
        #expect(try shared.nextUndo(of: "ann") == before.nextUndo(of: "ann"))
        // And it goes on from there.
        try shared.perform([.add(try Sharing.item("Eggs", 2))], named: "Add “Eggs”", by: "ann", at: Sharing.later)
        #expect(Self.titlesAndSeq(shared) == (["Bread", "Milk", "Eggs"], 4))
    }

    @Test func aStepsPatchHoldsEachTouchedItemAsItStoodBeforeAndAfterInTheOrderTheyStood() throws {
        var shared = try Sharing.list(["Milk", "Bread", "Eggs"])
        let step = try shared.perform(
            [.add(try Sharing.item("Tea", 3)), .remove(Sharing.id(1)), .move(Sharing.id(2), to: 0)],
            named: "Several", by: "ann", at: Sharing.later)
        #expect(step.patch.entries.map(\.id) == [Sharing.id(1), Sharing.id(2), Sharing.id(3)])
        #expect(step.patch.entries.map { $0.before?.after } == [Sharing.id(0), Sharing.id(1), nil])
        #expect(step.patch.entries.map { $0.after?.after } == [nil, nil, Sharing.id(0)])
        #expect(step.patch.entries.map(\.moved) == [false, true, false])
        #expect(Self.titlesAndSeq(shared) == (["Eggs", "Milk", "Tea"], 4))
    }

    static func titlesAndSeq(_ shared: SharedList) -> ([String], Int) {
        (Sharing.titles(shared), shared.log.count)
    }

    @Test func theLogReplaysToTheList() throws {
        var shared = try Sharing.list(["Milk", "Bread"])
        try Sharing.rename(0, to: "Oat milk", by: "bob", in: &shared)
        try shared.undo(by: "ann", at: Sharing.later)
        try shared.redo(by: "ann", at: Sharing.later)

        let replayed = try SharedList(replaying: shared.log)

        #expect(replayed.list == shared.list)
        #expect(try replayed.nextUndo(of: "ann")?.seq == shared.nextUndo(of: "ann")?.seq)
    }
}
