import Foundation
import Testing

@testable import Todos

/// An account removed and made again with the same name is a new account:
/// the rows the old one wrote stay in the list's history, but the new
/// one's Undo and Redo never take them back.
@Suite("A shared list: an account made again with a removed one's name")
struct EarlierAccountSpecs {
    @Test func undoAndRedoSkipTheRowsOfTheEarlierAccount() throws {
        var shared = try Sharing.list(["Milk", "Bread"])
        try Sharing.rename(0, to: "Oat milk", by: "bob", in: &shared)
        try Sharing.rename(1, to: "Rye bread", by: "bob", in: &shared)
        _ = try shared.undo(by: "bob", at: Sharing.later)
        // Rows 1–2 ann's adds, 3–4 bob's renames, 5 bob's undo of 4: all the earlier bob's.
        shared.earlierRows = ["bob": 5]

        #expect(try shared.nextUndo(of: "bob") == nil)
        #expect(try shared.nextRedo(of: "bob") == nil)
        #expect(shared.rowsToRead(for: .undo, by: "bob").rows.isEmpty)
        #expect(shared.summariesNeeded(by: "bob").isEmpty)
        #expect(throws: SharingError.nothingToUndo(author: "bob")) { try shared.undo(by: "bob", at: Sharing.later) }
        #expect(throws: SharingError.nothingToRedo(author: "bob")) { try shared.redo(by: "bob", at: Sharing.later) }
        #expect(Sharing.titles(shared) == ["Oat milk", "Bread"])

        // The new bob's own step is his; below it, nothing.
        try Sharing.rename(1, to: "Spelt bread", by: "bob", in: &shared)
        #expect(try shared.nextUndo(of: "bob")?.seq == 6)
        _ = try shared.undo(by: "bob", at: Sharing.later)
        #expect(Sharing.titles(shared) == ["Oat milk", "Bread"])
        #expect(throws: SharingError.nothingToUndo(author: "bob")) { try shared.undo(by: "bob", at: Sharing.later) }
        #expect(try shared.nextRedo(of: "bob")?.seq == 7)
        // Others' stacks are untouched.
        #expect(try shared.nextUndo(of: "ann")?.seq == 2)
    }

    @Test func aRenameOfTheNewAccountDoesNotJoinTheEarlierOnesStep() throws {
        var shared = try Sharing.list(["Milk"])
        try shared.perform(
            [.update(Sharing.id(0), [.title(to: "Oat")], at: Sharing.later)], named: "Rename", by: "bob", at: Sharing.later,
            coalescingKey: "title")
        shared.earlierRows = ["bob": 2]
        try shared.perform(
            [.update(Sharing.id(0), [.title(to: "Oat milk")], at: Sharing.later)], named: "Rename", by: "bob",
            at: Sharing.later, coalescingKey: "title")

        let next = try #require(try shared.nextUndo(of: "bob"))
        #expect(next.seq == 3)
        _ = try shared.undo(by: "bob", at: Sharing.later)
        #expect(Sharing.titles(shared) == ["Oat"])
    }

    @Test func theAccessNamesTheEarlierAccountsRowsAndForgetsThemWhenTheMemberGoes() throws {
        let (ann, bob) = (try AccountName("ann"), try AccountName("Bob"))
        var access = ListAccess(owner: ann)
        try access.share(with: bob, by: ann, earlierRows: 4)

        #expect(access.earlierRows == ["bob": 4])
        #expect(!access.isOwn(row: 4, author: "bob", by: bob))
        #expect(access.isOwn(row: 5, author: "bob", by: bob))
        #expect(!access.isOwn(row: 5, author: "ann", by: bob))
        #expect(access.author(ofRow: 4, key: "bob") == "bob (a removed account)")
        #expect(access.author(ofRow: 5, key: "bob") == "Bob")
        #expect(access.author(ofRow: 1, key: "ann") == "ann")

        try access.unshare(with: bob, by: ann)
        #expect(access.earlierRows.isEmpty)
        try access.share(with: bob, by: ann)
        #expect(access.isOwn(row: 4, author: "bob", by: bob))
        // Only members have earlier rows, and only some.
        #expect(ListAccess(owner: ann, members: [bob], earlierRows: ["bob": 0, "cem": 3]).earlierRows.isEmpty)
    }
}
