import Foundation
import GRDB
import PostgresNIO
import Testing
import TestSupport
import Todos
@testable import TodoStore
@testable import TodoStorePostgres

/// What every store of shared lists does: the per-person undo of
/// `docs/shared-undo.md` through the store, kept across a reopen; one
/// gap-free log when two stores write one list; and access by membership,
/// so that an outsider learns nothing.
@Suite("Every store of shared lists", .dropsPostgresSchemas)
struct SharedListStoreTests {
    /// What a reopened store must give back for one list.
    struct Seen: Equatable {
        var items: SharedListItems
        var next: [SharedListNextSteps]
        var history: [SharedStep.Summary]
    }

    static func seen(_ store: any SharedListStore, _ list: UUID) async throws -> Seen {
        var next: [SharedListNextSteps] = []
        for person in try Team.people { next.append(try await store.nextSteps(on: list, of: person)) }
        return Seen(
            items: try await store.items(of: list, as: Team.ann), next: next,
            history: try await store.history(of: list, as: Team.ann, before: nil, limit: SharedListSummary.largestHistoryPage))
    }

    /// Checks that a new store over the same data sees what `store` sees,
    /// and returns the new store.
    @discardableResult
    static func expectSameAfterReopening(
        _ fixture: SharedStoreFixture, _ store: any SharedListStore, _ list: UUID, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> any SharedListStore {
        let before = try await seen(store, list)
        let reopened = try await fixture.open()
        #expect(try await seen(reopened, list) == before, sourceLocation: sourceLocation)
        return reopened
    }

    /// A list of ann's, shared with bob and cem, with one item per title, each added by ann.
    static func list(_ titles: [String], in store: any SharedListStore) async throws -> UUID {
        let list = try await store.create(name: "Groceries", owner: Team.ann).id
        try await store.share(list, with: Team.bob, madeAt: .distantPast, by: Team.ann)
        try await store.share(list, with: Team.cem, madeAt: .distantPast, by: Team.ann)
        for (n, title) in titles.enumerated() {
            try await store.perform([.add(Team.item(title, n))], named: "Add “\(title)”", on: list, by: Team.ann)
        }
        return list
    }

    static func rename(_ n: Int, to title: String, on list: UUID, by person: AccountName, in store: any SharedListStore)
        async throws
    {
        try await store.perform([.update(Team.id(n), [.title(to: title)], at: Team.date)], named: "Rename", on: list, by: person)
    }

    static func titles(_ store: any SharedListStore, _ list: UUID) async throws -> [String] {
        try await store.items(of: list, as: Team.ann).list.items.map(\.title)
    }

    // MARK: Counts

    @Test(arguments: SharedStoreKind.tested)
    func eachPersonCountsTheItemsOfTheirOwnListsOnlyAsAnotherStoreWroteThem(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let groceries = try await Self.list(["Milk", "Bread", "Eggs"], in: store)
        try await store.perform([.update(Team.id(1), [.complete], at: Team.date)], named: "Complete", on: groceries, by: Team.bob)
        let bobs = try await store.create(name: "Bob's", owner: Team.bob).id
        let cems = try await store.create(name: "Cem's", owner: Team.cem).id
        try await store.perform([.add(Team.item("Secret", 9))], named: "Add", on: cems, by: Team.cem)

        #expect(try await store.itemCounts(of: Team.ann) == [groceries: SharedListCounts(items: 3, completed: 1)])
        #expect(try await store.itemCounts(of: Team.bob) == [
            groceries: SharedListCounts(items: 3, completed: 1), bobs: SharedListCounts(items: 0, completed: 0),
        ])
        #expect(try await store.itemCounts(of: Team.cem) == [
            groceries: SharedListCounts(items: 3, completed: 1), cems: SharedListCounts(items: 1, completed: 0),
        ])
        #expect(try await store.itemCounts(of: Team.bob)[groceries]?.active == 2)

        // A change through another store (another process, another instance; the memory store is one) counts too.
        let other = try await fixture.open()
        try await other.perform([.remove(Team.id(0))], named: "Delete", on: groceries, by: Team.cem)
        try await other.perform([.update(Team.id(2), [.complete], at: Team.date)], named: "Complete", on: groceries, by: Team.ann)
        #expect(try await store.itemCounts(of: Team.ann) == [groceries: SharedListCounts(items: 2, completed: 2)])
        try await store.unshare(groceries, with: Team.cem, by: Team.ann)
        #expect(try await store.itemCounts(of: Team.cem) == [cems: SharedListCounts(items: 1, completed: 0)])
    }

    // MARK: The named scenarios, through the store and across a reopen

    @Test(arguments: SharedStoreKind.tested)
    func undoingMyRenameKeepsTheCompletionAnotherMadeSince(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk"], in: store)
        try await Self.rename(0, to: "Oat milk", on: list, by: Team.ann, in: store)
        try await store.perform([.update(Team.id(0), [.complete], at: Team.date)], named: "Complete", on: list, by: Team.bob)

        let undo = try await store.undo(on: list, by: Team.ann, expecting: nil)

        let milk = try #require(try await store.items(of: list, as: Team.bob).list[id: Team.id(0)])
        #expect(milk.title == "Milk")
        #expect(milk.isCompleted)
        #expect(undo.messages.isEmpty)
        let reopened = try await Self.expectSameAfterReopening(fixture, store, list)
        #expect(try await reopened.nextSteps(on: list, of: Team.ann).redo?.seq == undo.seq)
    }

    @Test(arguments: SharedStoreKind.tested)
    func myUndoLeavesTheLaterRenameOfAnotherAndSaysWhoAcrossAReopen(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk"], in: store)
        try await Self.rename(0, to: "Oat milk", on: list, by: Team.ann, in: store)
        try await Self.rename(0, to: "Soy milk", on: list, by: Team.bob, in: store)

        let undo = try await store.undo(on: list, by: Team.ann, expecting: 2)

        #expect(try await Self.titles(store, list) == ["Soy milk"])
        #expect(undo.messages == ["Could not undo the rename of “Milk”: bob renamed it since."])
        let reopened = try await Self.expectSameAfterReopening(fixture, store, list)
        // The skipped step counts: ann's next undo is the add, bob's his rename.
        #expect(try await reopened.nextSteps(on: list, of: Team.ann).undo?.seq == 1)
        #expect(try await reopened.nextSteps(on: list, of: Team.bob).undo?.seq == 3)
        #expect(try await reopened.history(of: list, as: Team.bob, before: nil, limit: 1).first?.messages == undo.messages)
        // Ann's redo, in the reopened store, does not overwrite bob's rename either.
        try await reopened.redo(on: list, by: Team.ann, expecting: undo.seq)
        #expect(try await Self.titles(reopened, list) == ["Soy milk"])
    }

    @Test(arguments: SharedStoreKind.tested)
    func aDeletedItemComesBackAfterItsNearestSurvivingNeighbourAcrossAReopen(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["A", "B", "C", "D"], in: store)
        try await store.perform(
            [.update(Team.id(2), [.details(to: "two"), .complete], at: Team.date)], named: "Edit", on: list, by: Team.ann)
        let before = try #require(try await store.items(of: list, as: Team.ann).list[id: Team.id(2)])
        try await store.perform([.remove(Team.id(2))], named: "Delete “C”", on: list, by: Team.ann)
        try await store.perform([.remove(Team.id(1))], named: "Delete “B”", on: list, by: Team.bob)
        try await store.perform([.move(Team.id(3), to: 0)], named: "Move “D”", on: list, by: Team.bob)
        // Reopened between the changes and the undo: the undo needs the stacks and writers from the saved log.
        let reopened = try await Self.expectSameAfterReopening(fixture, store, list)

        let undo = try await reopened.undo(on: list, by: Team.ann, expecting: nil)

        #expect(try await Self.titles(reopened, list) == ["D", "A", "C"])
        #expect(try await reopened.items(of: list, as: Team.cem).list[id: Team.id(2)] == before)
        #expect(undo.messages.isEmpty)
        try await Self.expectSameAfterReopening(fixture, reopened, list)
    }

    @Test(arguments: SharedStoreKind.tested)
    func undoingAnAddAnotherChangedSinceKeepsTheItemAndSaysSo(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk"], in: store)
        try await store.perform([.update(Team.id(0), [.complete], at: Team.date)], named: "Complete", on: list, by: Team.bob)
        let reopened = try await Self.expectSameAfterReopening(fixture, store, list)

        let undo = try await reopened.undo(on: list, by: Team.ann, expecting: 1)

        #expect(try await Self.titles(reopened, list) == ["Milk"])
        #expect(undo.messages == ["Kept “Milk”: bob changed it since."])
        try await Self.expectSameAfterReopening(fixture, reopened, list)
    }

    @Test(arguments: SharedStoreKind.tested)
    func myRedoIsKeptWhenOthersChangeTheListAndAfterAReopen(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk", "Bread"], in: store)
        try await Self.rename(0, to: "Oat milk", on: list, by: Team.ann, in: store)
        let undo = try await store.undo(on: list, by: Team.ann, expecting: nil)
        try await store.perform([.update(Team.id(1), [.complete], at: Team.date)], named: "Complete", on: list, by: Team.bob)
        try await store.perform([.add(Team.item("Eggs", 2))], named: "Add “Eggs”", on: list, by: Team.bob)
        let reopened = try await Self.expectSameAfterReopening(fixture, store, list)
        #expect(try await reopened.nextSteps(on: list, of: Team.ann).redo == undo.summary)

        try await reopened.redo(on: list, by: Team.ann, expecting: undo.seq)

        let items = try await reopened.items(of: list, as: Team.ann).list
        #expect(items.items.map(\.title) == ["Oat milk", "Bread", "Eggs"])
        #expect(items[id: Team.id(1)]?.isCompleted == true)
        try await Self.expectSameAfterReopening(fixture, reopened, list)
    }

    @Test(arguments: SharedStoreKind.tested)
    func aDoubleClickedUndoUndoesOneStepOnlyAndChangesNothingTheSecondTime(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk", "Bread"], in: store)
        let named = try #require(try await store.nextSteps(on: list, of: Team.ann).undo)
        #expect(named.seq == 2)

        try await store.undo(on: list, by: Team.ann, expecting: named.seq)
        // The second click reaches another instance, after a reopen.
        let reopened = try await Self.expectSameAfterReopening(fixture, store, list)
        await #expect(throws: SharingError.notTheNextStep(asked: 2, next: 1)) {
            try await reopened.undo(on: list, by: Team.ann, expecting: named.seq)
        }

        #expect(try await Self.titles(reopened, list) == ["Milk"])
        #expect(try await reopened.items(of: list, as: Team.ann).seq == 3)
        try await Self.expectSameAfterReopening(fixture, reopened, list)
    }

    @Test(arguments: SharedStoreKind.tested)
    func quickRenamesByOnePersonAreOneStepEvenWhenAnotherChangesTheListMeanwhile(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk"], in: store)
        for (index, title) in ["M", "Mi", "Mil"].enumerated() {
            try await store.perform(
                [.update(Team.id(0), [.title(to: title)], at: Team.date)], named: "Rename", coalescingKey: "title", on: list,
                by: Team.ann)
            if index == 0 { try await store.perform([.add(Team.item("Bread", 1))], named: "Add “Bread”", on: list, by: Team.bob) }
        }
        let reopened = try await Self.expectSameAfterReopening(fixture, store, list)

        try await reopened.undo(on: list, by: Team.ann, expecting: 2)

        #expect(try await Self.titles(reopened, list) == ["Milk", "Bread"])
        #expect(try await reopened.nextSteps(on: list, of: Team.ann).undo?.seq == 1)
    }

    // MARK: The saved rows

    @Test(arguments: SharedStoreKind.tested)
    func theLogReplaysToTheStoredItemsAndWritersAfterAReopen(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["A", "B", "C", "D", "E"], in: store)
        try await store.perform([.move(Team.id(4), to: 0), .remove(Team.id(1))], named: "Tidy", on: list, by: Team.bob)
        try await Self.rename(2, to: "See", on: list, by: Team.cem, in: store)
        try await store.undo(on: list, by: Team.ann, expecting: nil)
        try await store.perform([.completeAll(at: Team.date)], named: "Complete all", on: list, by: Team.ann)
        try await store.undo(on: list, by: Team.bob, expecting: nil)
        try await store.redo(on: list, by: Team.bob, expecting: nil)

        let reopened = try await fixture.open()
        let history = try await reopened.history(of: list, as: Team.cem, before: nil, limit: 500)
        #expect(history.map(\.seq) == Array((1...history.count).reversed()))
        let log = try await fixture.savedRows(of: list, in: reopened)
        #expect(log.map(\.summary) == history.reversed())
        let replayed = try SharedList(replaying: log)
        let stored = try await reopened.items(of: list, as: Team.cem)
        #expect(stored.list == replayed.list)
        #expect(stored.seq == log.count)
        if let writers = try await fixture.savedWriters(of: list, in: reopened) {
            #expect(!writers.isEmpty)
            for (key, writer) in writers {
                #expect(replayed.latestWriter(of: key)?.seq == writer.seq)
                #expect(replayed.latestWriter(of: key)?.author == writer.author)
            }
            for row in log { for key in row.patch.parts { #expect(writers[key] != nil) } }
        }
    }

    @Test(arguments: SharedStoreKind.persistent)
    func twoStoresOverOneDatabaseKeepOneGapFreeLogAndEachPersonsUndo(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let first = try await fixture.open()
        let second = try await fixture.open()
        let list = try await Self.list(["Milk"], in: first)
        // Each store writes after the other without hearing of it.
        try await Self.rename(0, to: "Oat milk", on: list, by: Team.ann, in: first)
        try await second.perform([.update(Team.id(0), [.complete], at: Team.date)], named: "Complete", on: list, by: Team.bob)
        try await first.perform([.add(Team.item("Bread", 1))], named: "Add “Bread”", on: list, by: Team.bob)
        try await second.perform([.move(Team.id(1), to: 0)], named: "Move “Bread”", on: list, by: Team.cem)

        // Ann's undo, through the store that did not see bob's completion, keeps it.
        let undo = try await second.undo(on: list, by: Team.ann, expecting: 2)
        #expect(undo.seq == 6)
        // Bob's undo, through the other one, takes back his add, not ann's
        // rename; cem moved the item, so it stays.
        let kept = try await first.undo(on: list, by: Team.bob, expecting: 4)
        #expect(kept.messages == ["Kept “Bread”: cem changed it since."])

        let items = try await first.items(of: list, as: Team.ann).list
        #expect(items.items.map(\.title) == ["Bread", "Milk"])
        #expect(items[id: Team.id(0)]?.isCompleted == true)
        for store in [first, second, try await fixture.open()] {
            let log = try await store.history(of: list, as: Team.cem, before: nil, limit: 100)
            #expect(log.map(\.seq) == Array((1...7).reversed()))
            #expect(log.map(\.author) == ["bob", "ann", "cem", "bob", "bob", "ann", "ann"])
            #expect(try await store.items(of: list, as: Team.bob).list == items)
            #expect(try await store.nextSteps(on: list, of: Team.ann).redo?.seq == 6)
            #expect(try await store.nextSteps(on: list, of: Team.bob).undo?.seq == 3)
        }
    }

    @Test(arguments: SharedStoreKind.persistent)
    func twoStoresWritingOneListAtOnceTakeTurnsAndLoseNoRow(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let stores = [try await fixture.open(), try await fixture.open()]
        let list = try await Self.list([], in: stores[0])
        let people = [try Team.ann, try Team.bob]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    for n in 0..<15 {
                        let item = try Team.item("\(people[index].key) \(n)", index * 100 + n)
                        try await store.perform([.add(item)], named: "Add", on: list, by: people[index])
                    }
                }
            }
            try await group.waitForAll()
        }

        for store in stores + [try await fixture.open()] {
            let log = try await store.history(of: list, as: Team.ann, before: nil, limit: 100)
            #expect(log.map(\.seq) == Array((1...30).reversed()))
            let rows = try await fixture.savedRows(of: list, in: store)
            #expect(rows.map(\.summary) == log.reversed())
            #expect(try await store.items(of: list, as: Team.ann).list == (try SharedList(replaying: rows)).list)
            #expect(try await store.items(of: list, as: Team.ann).list.count == 30)
            // Each person's next undo is their own latest add.
            for person in people {
                #expect(try await store.nextSteps(on: list, of: person).undo == log.first { $0.author == person.key })
            }
        }
    }

    /// A store that holds a list saves each change in one statement on the
    /// list as it holds it; when another store wrote first, the statement
    /// writes nothing, the row is taken back in memory and the change is
    /// made again on the list brought up to date, after the other's rows.
    @Test func aChangeOfAListTheStoreHoldsIsSavedInOneStatementUnlessAnotherStoreWroteFirst() async throws {
        guard SharedStoreKind.tested.contains(.postgres) else { return }
        let fixture = try SharedStoreFixture(.postgres)
        let first = try #require(try await fixture.open() as? PostgresSharedListStore)
        // Not listening: what it knows of the other store's rows is what its statements find.
        await first.setListensWhenChanging(false)
        let second = try await fixture.open()
        let list = try await Self.list(["Milk", "Bread"], in: first)
        // The first add read the list; the second was saved alone.
        #expect(await first.rowsSavedAlone == 1)
        try await Self.rename(0, to: "Oat milk", on: list, by: Team.ann, in: first)
        #expect(await (first.rowsSavedAlone, first.rowsTakenBack) == (2, 0))

        try await second.perform([.add(Team.item("Eggs", 2))], named: "Add “Eggs”", on: list, by: Team.bob)
        try await Self.rename(1, to: "Rye bread", on: list, by: Team.cem, in: first)
        #expect(await (first.rowsSavedAlone, first.rowsTakenBack) == (2, 1))
        try await first.perform([.add(Team.item("Jam", 3))], named: "Add “Jam”", on: list, by: Team.ann)
        #expect(await (first.rowsSavedAlone, first.rowsTakenBack) == (3, 1))

        #expect(try await Self.titles(first, list) == ["Oat milk", "Rye bread", "Eggs", "Jam"])
        let reopened = try await Self.expectSameAfterReopening(fixture, first, list)
        #expect(try await reopened.history(of: list, as: Team.ann, before: nil, limit: 10).map(\.author) == ["ann", "cem", "bob", "ann", "ann", "ann"])
        #expect(try await first.nextSteps(on: list, of: Team.cem).undo?.seq == 5)
    }

    /// A store that listens (from its second change of a list) and has
    /// heard that another store wrote since makes its next change in a
    /// transaction straight away, without a statement that would write
    /// nothing; after it, in one statement again.
    @Test func aStoreThatHeardOfAnothersRowsMakesItsNextChangeAfterThemStraightAway() async throws {
        guard SharedStoreKind.tested.contains(.postgres) else { return }
        let fixture = try SharedStoreFixture(.postgres)
        let first = try #require(try await fixture.open() as? PostgresSharedListStore)
        let second = try await fixture.open()
        let list = try await Self.list(["Milk", "Bread"], in: first)
        try await waitUntil("the first store listens") { await first.listenerConnections == 1 }
        // Rows may have gone unheard before it listened: read again first.
        try await Self.rename(0, to: "Oat milk", on: list, by: Team.ann, in: first)
        #expect(await first.heardAhead(of: list) == nil)
        let alone = await first.rowsSavedAlone
        try await Self.rename(1, to: "Rye bread", on: list, by: Team.ann, in: first)
        #expect(await first.rowsSavedAlone == alone + 1)

        try await second.perform([.add(Team.item("Eggs", 2))], named: "Add “Eggs”", on: list, by: Team.bob)
        try await waitUntil("the first store heard of it") { await first.heardAhead(of: list) == 5 }
        try await first.perform([.add(Team.item("Jam", 3))], named: "Add “Jam”", on: list, by: Team.cem)
        #expect(await (first.rowsSavedAlone, first.rowsTakenBack) == (alone + 1, 0))
        #expect(await first.heardAhead(of: list) == nil)
        try await first.perform([.add(Team.item("Tea", 4))], named: "Add “Tea”", on: list, by: Team.cem)
        #expect(await first.rowsSavedAlone == alone + 2)
        #expect(try await Self.titles(second, list) == ["Oat milk", "Rye bread", "Eggs", "Jam", "Tea"])
    }

    /// A store that opens a list afresh reads its items, the latest writer
    /// of each part and each row's head, none of its rows' changes: O(items)
    /// and not O(log) in memory. A person's undo then reads their own step,
    /// and the row that says where a deleted neighbour stood.
    /// Changes of several lists at once are saved by calls that each save
    /// rows of several lists with one commit; every list keeps every row,
    /// in one gap-free log, as a fresh store reads it.
    @Test func changesOfSeveralListsAtOnceAreSavedTogetherAndLoseNoRow() async throws {
        guard SharedStoreKind.tested.contains(.postgres) else { return }
        let fixture = try SharedStoreFixture(.postgres)
        let store = try #require(try await fixture.open() as? PostgresSharedListStore)
        var lists: [UUID] = []
        for _ in 0..<8 { lists.append(try await Self.list(["First"], in: store)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for list in lists {
                group.addTask {
                    for n in 1...15 {
                        try await store.perform([.add(Team.item("Item \(n)", n))], named: "Add", on: list, by: Team.bob)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(await store.callsSavingSeveralRows > 0)
        #expect(await store.rowsSavedTogether >= 2 * (await store.callsSavingSeveralRows))
        let reopened = try await fixture.open()
        for list in lists {
            #expect(try await Self.titles(reopened, list) == ["First"] + (1...15).map { "Item \($0)" })
            let log = try await reopened.history(of: list, as: Team.ann, before: nil, limit: 100)
            #expect(log.map(\.seq) == Array((1...16).reversed()))
        }
    }

    /// In a call that saves rows of several lists, a row whose list another
    /// store wrote first is not written (and made again after the other's
    /// rows), and a row that fails is saved again alone, which says why,
    /// while the others are saved.
    @Test func inACallOfSeveralRowsEachRowIsSavedOrRefusedAlone() async throws {
        guard SharedStoreKind.tested.contains(.postgres) else { return }
        let fixture = try SharedStoreFixture(.postgres)
        let store = try #require(try await fixture.open() as? PostgresSharedListStore)
        await store.setListensWhenChanging(false)
        let other = try await fixture.open()
        let saved = try await Self.list(["Milk"], in: store)
        let movedOn = try await Self.list(["Tea"], in: store)
        let broken = try await Self.list(["Jam"], in: store)
        try await Self.rename(0, to: "Oat milk", on: saved, by: Team.ann, in: store)
        try await Self.rename(0, to: "Green tea", on: movedOn, by: Team.ann, in: store)
        try await Self.rename(0, to: "Plum jam", on: broken, by: Team.ann, in: store)
        // Another store writes first to one list; a row in the way of the next row of another.
        try await other.perform([.add(Team.item("Honey", 1))], named: "Add “Honey”", on: movedOn, by: Team.cem)
        let database = try #require(fixture.postgresDatabase).database
        try await database.client.query(PostgresQuery(unsafeSQL: """
            INSERT INTO rewind_shared_step (list_id, seq, author, kind, name, date, changes, patch, skipped)
            SELECT list_id, last_seq + 1, 'eve', 'change', 'In the way', 0, '[]', '[]', '[]'
            FROM rewind_shared_list WHERE id = '\(broken.uuidString)'
            """))

        await store.holdSaves()
        let one = Task { try await store.perform([.add(Team.item("Bread", 2))], named: "Add “Bread”", on: saved, by: Team.bob) }
        let two = Task { try await store.perform([.add(Team.item("Lemon", 2))], named: "Add “Lemon”", on: movedOn, by: Team.bob) }
        let three = Task { try await store.perform([.add(Team.item("Toast", 2))], named: "Add “Toast”", on: broken, by: Team.bob) }
        try await waitUntil("three rows wait") { await store.waitingSaveCount == 3 }
        let calls = await store.callsSavingSeveralRows
        await store.releaseSaves()
        _ = try await one.value
        _ = try await two.value
        await #expect(throws: StoreError.self) { try await three.value }
        #expect(await store.callsSavingSeveralRows == calls + 1)
        #expect(await store.rowsTakenBack == 1)

        let reopened = try await fixture.open()
        #expect(try await Self.titles(reopened, saved) == ["Oat milk", "Bread"])
        #expect(try await Self.titles(reopened, movedOn) == ["Green tea", "Honey", "Lemon"])
        #expect(try await Self.titles(reopened, broken) == ["Plum jam"])
    }

    @Test(arguments: SharedStoreKind.persistent)
    func aListOpenedAfreshHoldsNoRowUntilAnUndoReadsTheOnesItNeeds(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk", "Eggs", "Bread"] + (3..<40).map { "Item \($0)" }, in: store)
        try await store.perform([.remove(Team.id(2))], named: "Delete “Bread”", on: list, by: Team.ann)  // row 41
        try await store.perform([.remove(Team.id(1))], named: "Delete “Eggs”", on: list, by: Team.bob)  // row 42
        let reopened = try await fixture.open()
        // The items alone are read from their rows; the list is not held.
        #expect(try await reopened.items(of: list, as: Team.ann).list.count == 38)
        #expect(await fixture.heldRowCount(of: list, in: reopened) == nil)
        // Held from here: the Undo button names Ann's next undo from its
        // row's summary, without reading the row's changes.
        #expect(try await reopened.nextSteps(on: list, of: Team.ann).undo?.name == "Delete “Bread”")
        #expect(await fixture.heldRowCount(of: list, in: reopened) == 0)
        #expect(await fixture.heldSummaryCount(of: list, in: reopened) == 1)
        // The undo reads its row whole. Bread followed Eggs, which Bob
        // deleted after Milk (row 42, read when the undo asks for it): it
        // comes back after Milk.
        #expect(try await reopened.undo(on: list, by: Team.ann, expecting: 41).kind == .undo(of: 41))
        #expect(try await Self.titles(reopened, list).prefix(3) == ["Milk", "Bread", "Item 3"])
        #expect(await fixture.heldRowCount(of: list, in: reopened) == 3)
        #expect(try await reopened.nextSteps(on: list, of: Team.bob).undo?.seq == 42)
        // The history's page reads the summaries of the rows it shows, and no row whole.
        let page = try await reopened.history(of: list, as: Team.cem, before: nil, limit: 10)
        #expect(page.map(\.seq) == Array((34...43).reversed()))
        #expect(await fixture.heldRowCount(of: list, in: reopened) == 3)
        #expect((await fixture.heldSummaryCount(of: list, in: reopened) ?? 0) >= 7)
        try await Self.expectSameAfterReopening(fixture, reopened, list)
    }

    /// A step over every item (complete all, then clear the completed ones)
    /// weighs on no later command that does not take it back: a store opened
    /// afresh names the next steps, shows the history and makes a change
    /// from the rows' summaries, and reads the step whole only to undo it.
    @Test(arguments: SharedStoreKind.persistent)
    func aLargeStepIsReadWholeOnlyToTakeItBack(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list((0..<50).map { "Item \($0)" }, in: store)
        try await store.perform([.completeAll(at: Team.date)], named: "Complete all", on: list, by: Team.ann)  // row 51
        try await store.perform([.removeCompleted], named: "Clear completed", on: list, by: Team.ann)  // row 52
        let reopened = try await fixture.open()
        let next = try await reopened.nextSteps(on: list, of: Team.ann)
        #expect(next.undo?.seq == 52 && next.undo?.name == "Clear completed" && next.redo == nil)
        let page = try await reopened.history(of: list, as: Team.ann, before: nil, limit: 5)
        #expect(page.map(\.name) == ["Clear completed", "Complete all", "Add “Item 49”", "Add “Item 48”", "Add “Item 47”"])
        try await reopened.perform([.add(Team.item("Milk", 100))], named: "Add “Milk”", on: list, by: Team.ann)
        #expect(await fixture.heldRowCount(of: list, in: reopened) == 1, "only the add just made is held whole")
        // Taking the clear back reads its row, and puts the 50 items back.
        try await reopened.undo(on: list, by: Team.ann, expecting: 53)
        let undo = try await reopened.undo(on: list, by: Team.ann, expecting: 52)
        #expect(undo.kind == .undo(of: 52))
        #expect(try await reopened.items(of: list, as: Team.ann).list.count == 50)
        #expect(try await reopened.nextSteps(on: list, of: Team.ann).redo?.seq == undo.seq)
        try await Self.expectSameAfterReopening(fixture, reopened, list)
    }

    /// A store opens a list with the latest writers of its listed items
    /// only; an undo that looks at an item removed before reads that item's
    /// writers, and says who removed it, as a store that read them all would.
    @Test(arguments: SharedStoreKind.persistent)
    func anUndoReadsTheWritersOfAnItemRemovedBeforeTheListWasOpened(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk", "Eggs"], in: store)  // rows 1 and 2, by Ann
        try await store.perform([.update(Team.id(0), [.complete], at: Team.date)], named: "Complete", on: list, by: Team.bob)
        try await store.perform([.removeCompleted], named: "Clear completed", on: list, by: Team.bob)  // row 4
        let reopened = try await fixture.open()
        try await reopened.undo(on: list, by: Team.ann, expecting: 2)  // Eggs goes
        let undo = try await reopened.undo(on: list, by: Team.ann, expecting: 1)
        #expect(undo.skipped.map(\.reason) == [.deleted])
        #expect(undo.skipped.first?.by == "bob")
        #expect(undo.messages.count == 1)
        #expect(try await Self.titles(reopened, list).isEmpty)
        try await Self.expectSameAfterReopening(fixture, reopened, list)
    }

    /// The history read back from the database says what each undo and
    /// redo left alone, as the rows said when they were made: the sentences
    /// come from the rows' summaries, read without their changes.
    @Test(arguments: SharedStoreKind.persistent)
    func theHistoryReadBackSaysWhatEachUndoAndRedoLeftAlone(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk"], in: store)  // row 1, by Ann
        try await store.perform([.remove(Team.id(0))], named: "Delete “Milk”", on: list, by: Team.bob)  // row 2
        let undo = try await store.undo(on: list, by: Team.ann, expecting: 1)  // row 3: left alone
        let redo = try await store.redo(on: list, by: Team.ann, expecting: 3)  // row 4: nothing to put back
        let again = try await store.undo(on: list, by: Team.ann, expecting: 4)  // row 5: nothing to take back
        #expect(undo.messages.count == 1)
        #expect(redo.messages == [SharedStep.nothingToPutBack])
        #expect(again.messages == [SharedStep.nothingToTakeBack])
        let reopened = try await fixture.open()
        let page = try await reopened.history(of: list, as: Team.bob, before: nil, limit: 10)
        #expect(page.map(\.messages) == [again.messages, redo.messages, undo.messages, [], []])
        #expect(
            page == [again.summary, redo.summary, undo.summary] + (try await store.history(of: list, as: Team.bob, before: 3, limit: 10)))
    }

    /// A page of history asked for below any row number, even the smallest
    /// integer, is empty; above the latest row it is the newest rows.
    @Test(arguments: SharedStoreKind.tested)
    func aPageOfHistoryBelowAnyRowIsEmptyAndAboveTheLatestIsTheNewest(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk", "Bread", "Eggs"], in: store)
        for before in [Int.min, -1, 0, 1] {
            #expect(try await store.history(of: list, as: Team.bob, before: before, limit: 2).isEmpty, "before \(before)")
        }
        for before in [4, 5, Int.max] {
            #expect(try await store.history(of: list, as: Team.bob, before: before, limit: 2).map(\.seq) == [3, 2], "before \(before)")
        }
        #expect(try await store.history(of: list, as: Team.bob, before: 3, limit: 5).map(\.seq) == [2, 1])
    }

    /// What a store keeps of a list follows its items, not its log: after
    /// a page of history that read the summary of every row (and no row
    /// whole), it holds the newest summaries and those each person's next
    /// undo and redo show.
    @Test(arguments: SharedStoreKind.persistent)
    func aPageOfHistoryReadsSummariesAndTheStoreKeepsOnlyTheNewest(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk"], in: store)
        for n in 1...(CachedSharedList.rowsKept + 40) {
            try await Self.rename(0, to: "Milk \(n)", on: list, by: n.isMultiple(of: 2) ? Team.bob : Team.cem, in: store)
        }
        let rows = CachedSharedList.rowsKept + 41
        let reopened = try await fixture.open()
        let page = try await reopened.history(of: list, as: Team.ann, before: nil, limit: SharedListSummary.largestHistoryPage)
        #expect(page.map(\.seq) == Array((1...rows).reversed()))
        #expect(page.last?.name == "Add “Milk”")
        // The newest rows, and Ann's next undo (the first row: Bob's and Cem's are among the newest).
        #expect(await fixture.heldRowCount(of: list, in: reopened) == 0)
        #expect(await fixture.heldSummaryCount(of: list, in: reopened) == CachedSharedList.rowsKept + 1)
        #expect(try await reopened.undo(on: list, by: Team.ann, expecting: 1).skipped.map(\.reason) == [.keptAdded])
    }

    /// A store keeps the lists it read up to about so many items and log
    /// rows in all: past that it lets go of the lists used longest ago, and
    /// opens one again when it is next asked for; what it answers is the
    /// same as with every list held.
    @Test(arguments: SharedStoreKind.persistent)
    func aStoreLetsGoOfTheListsUsedLongestAgoPastItsRowsAndReadsThemAgain(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open(cachedRows: 5)
        let groceries = try await Self.list(["Milk", "Bread", "Eggs"], in: store)
        #expect(await fixture.heldLists(in: store) == [groceries])
        let chores = try await store.create(name: "Chores", owner: Team.ann).id
        try await store.share(chores, with: Team.bob, madeAt: .distantPast, by: Team.ann)
        try await store.share(chores, with: Team.cem, madeAt: .distantPast, by: Team.ann)
        for (n, title) in ["Sweep", "Dust", "Iron"].enumerated() {
            try await store.perform([.add(Team.item(title, 10 + n))], named: "Add “\(title)”", on: chores, by: Team.ann)
        }
        // 6 rows held would be over 5: the groceries, used longest ago, went.
        #expect(await fixture.heldLists(in: store) == [chores])

        // Read again, whole, when asked for; the undo of bob's rename is his own.
        try await Self.rename(1, to: "Rye bread", on: groceries, by: Team.bob, in: store)
        #expect(await fixture.heldLists(in: store) == [groceries])
        try await store.undo(on: chores, by: Team.ann, expecting: nil)
        #expect(try await store.undo(on: groceries, by: Team.bob, expecting: nil).kind == .undo(of: 4))
        #expect(try await Self.titles(store, groceries) == ["Milk", "Bread", "Eggs"])
        #expect(try await store.items(of: chores, as: Team.bob).list.items.map(\.title) == ["Sweep", "Dust"])
        try await Self.expectSameAfterReopening(fixture, store, groceries)
        try await Self.expectSameAfterReopening(fixture, store, chores)
        // A list longer than the bound is kept while it is the one in use.
        for n in 0..<6 { try await Self.rename(0, to: "Milk \(n)", on: groceries, by: Team.cem, in: store) }
        #expect(await fixture.heldLists(in: store) == [groceries])
    }

    /// A row weighs in the cache what it touched: a list emptied by a step
    /// over its items holds few items but a heavy row, and is let go for a
    /// list used since as a list of that many items would be (a row
    /// counted as one let a server keep any number of such lists).
    @Test(arguments: SharedStoreKind.persistent)
    func aListsRowsWeighInTheCacheWhatTheyTouched(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open(cachedRows: 30)
        let emptied = try await store.create(name: "Emptied", owner: Team.ann).id
        let items = try (0..<20).map { try Team.item("Item \($0)", 40 + $0) }
        try await store.perform(items.map { .add($0) }, named: "Add 20", on: emptied, by: Team.ann)
        try await store.perform([.removeItems(items.map(\.id))], named: "Delete 20", on: emptied, by: Team.ann)
        #expect(await fixture.heldLists(in: store) == [emptied])
        let groceries = try await Self.list(["Milk", "Bread", "Eggs"], in: store)
        // The emptied list's two rows weigh 40 (no item is left): over 30 with the groceries' 6.
        #expect(await fixture.heldLists(in: store) == [groceries])
        #expect(try await store.undo(on: emptied, by: Team.ann, expecting: nil).kind == .undo(of: 2))
        #expect(try await store.items(of: emptied, as: Team.ann).list.items.map(\.title) == items.map(\.title))
    }

    /// A store that listens goes when nothing else holds it, and its
    /// listener and the listener's connection with it (the listener's task
    /// held the store, and every store that changed a list twice kept a
    /// connection until its process ended).
    @Test func aStoreThatListensGoesWithItsListenerWhenNothingHoldsIt() async throws {
        guard SharedStoreKind.tested.contains(.postgres) else { return }
        let fixture = try SharedStoreFixture(.postgres)
        weak var released: PostgresSharedListStore?
        do {
            let store = try #require(try await fixture.open() as? PostgresSharedListStore)
            released = store
            _ = try await Self.list(["Milk", "Bread"], in: store)
            try await waitUntil("the store listens") { await store.listenerConnections == 1 }
        }
        try await waitUntil("the store to go") { released == nil }
    }

    /// A member whom the owner removed through another store can no longer
    /// change the list through a store that holds it from before, and
    /// nothing of theirs is written; the others go on.
    @Test(arguments: SharedStoreKind.persistent)
    func aMemberRemovedThroughAnotherStoreCannotChangeTheListThroughOneThatHoldsIt(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let first = try await fixture.open()
        let second = try await fixture.open()
        let list = try await Self.list(["Milk"], in: first)
        try await Self.rename(0, to: "Oat milk", on: list, by: Team.bob, in: first)
        try await second.unshare(list, with: Team.bob, by: Team.ann)

        await #expect(throws: AccountError.listNotFound) {
            try await first.perform([.add(Team.item("Eggs", 1))], named: "Add “Eggs”", on: list, by: Team.bob)
        }
        await #expect(throws: AccountError.listNotFound) { try await first.undo(on: list, by: Team.bob, expecting: nil) }
        try await first.perform([.add(Team.item("Jam", 2))], named: "Add “Jam”", on: list, by: Team.cem)
        #expect(try await Self.titles(second, list) == ["Oat milk", "Jam"])
        #expect(try await second.history(of: list, as: Team.ann, before: nil, limit: 10).map(\.seq) == [3, 2, 1])
    }

    /// What a plan of the tests refuses with.
    struct Refused: Error, Equatable { let reason: String }

    @Test(arguments: SharedStoreKind.persistent)
    func aPlanIsMadeOnTheListAsItIsAtItsTurnAndWhatItThrowsChangesNothing(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let first = try await fixture.open()
        let second = try await fixture.open()
        let list = try await Self.list(["Milk"], in: first)
        // The other store adds an item the first has not heard of: the
        // first store's plan sees it.
        try await second.perform([.add(Team.item("Bread", 1))], named: "Add “Bread”", on: list, by: Team.bob)
        let (step, item) = try await first.perform(on: list, by: Team.cem, answering: Team.id(1)) { items in
            guard let bread = items[id: Team.id(1)] else { throw Refused(reason: "no bread in \(items.count) items") }
            return PlannedSharedChange([.update(bread.id, [.complete], at: Team.date)], on: items)
        }
        #expect(step.seq == 3)
        #expect(step.name == "Complete “Bread”")
        #expect(step.author == "cem")
        #expect(item?.title == "Bread")
        #expect(item?.isCompleted == true)

        // What a plan throws comes back as it is, and nothing is written.
        await #expect(throws: Refused(reason: "no tea")) {
            try await first.perform(on: list, by: Team.ann, answering: nil) { _ in throw Refused(reason: "no tea") }
        }
        // An outsider is refused before any plan is made.
        await #expect(throws: AccountError.listNotFound) {
            try await first.perform(on: list, by: try Team.eve, answering: nil) { _ in throw Refused(reason: "planned") }
        }
        for store in [first, second, try await fixture.open()] {
            #expect(try await store.history(of: list, as: Team.ann, before: nil, limit: 10).map(\.seq) == [3, 2, 1])
        }
        // The store goes on from the list it holds.
        try await first.perform([.add(Team.item("Eggs", 2))], named: "Add “Eggs”", on: list, by: Team.ann)
        try await Self.expectSameAfterReopening(fixture, first, list)
        #expect(try await Self.titles(first, list) == ["Milk", "Bread", "Eggs"])
    }

    @Test(arguments: SharedStoreKind.persistent)
    func aStoreThatHoldsTheListPlacesItemsRightAfterAnotherNumberedEveryRowAgain(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let first = try await fixture.open()
        let second = try await fixture.open()
        let list = try await Self.list(["X", "A", "B", "C", "D", "E"], in: first)
        // The second store holds the list, and the first rows' gap at the top.
        try await second.perform([.removeItems([Team.id(0)])], named: "Delete “X”", on: list, by: Team.bob)
        // The first moves C and D in turns between B and the other until a
        // double has no room left between them, and every row is numbered again.
        for n in 0..<60 {
            try await first.perform([.move(Team.id(n % 2 == 0 ? 4 : 3), to: 2)], named: "Move", on: list, by: Team.ann)
        }
        if let postgres = first as? PostgresSharedListStore {
            // Counted, so that the second store reads every rank.
            #expect(await postgres.renumberings(of: list) ?? 0 > 0)
        }
        // The second places E between A and B from the ranks it holds and
        // the rows it reads.
        try await second.perform([.move(Team.id(5), to: 1)], named: "Move “E”", on: list, by: Team.bob)
        #expect(try await Self.titles(second, list) == ["A", "E", "B", "C", "D"])
        try await Self.expectSameAfterReopening(fixture, second, list)
    }

    @Test(arguments: SharedStoreKind.tested)
    func manyCallsAtOnceOnOneStoreKeepEveryChangeInOneGapFreeLog(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list([], in: store)
        let people = try Team.people
        // Adds, refused plans and reads of the same list, all at once.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<24 {
                group.addTask {
                    let person = people[n % people.count]
                    switch n % 3 {
                    case 0, 1:
                        try await store.perform([.add(try Team.item("Item \(n)", n))], named: "Add", on: list, by: person)
                    default:
                        await #expect(throws: Refused.self) {
                            try await store.perform(on: list, by: person, answering: nil) { _ in throw Refused(reason: "\(n)") }
                        }
                        _ = try await store.items(of: list, as: person)
                    }
                }
            }
            try await group.waitForAll()
        }
        let log = try await store.history(of: list, as: Team.ann, before: nil, limit: 100)
        #expect(log.map(\.seq) == Array((1...16).reversed()))
        let items = try await store.items(of: list, as: Team.ann).list
        #expect(items.count == 16)
        let rows = try await fixture.savedRows(of: list, in: store)
        #expect(rows.map(\.summary) == log.reversed())
        #expect(items == (try SharedList(replaying: rows)).list)
        try await Self.expectSameAfterReopening(fixture, store, list)
    }

    // MARK: Access

    @Test(arguments: SharedStoreKind.tested)
    func anOutsiderIsToldTheListDoesNotExistWhateverTheyAsk(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk"], in: store)
        let eve = try Team.eve
        let notFound = AccountError.listNotFound
        await #expect(throws: notFound) { try await store.items(of: list, as: eve) }
        await #expect(throws: notFound) { try await store.perform([.remove(Team.id(0))], named: "Delete", on: list, by: eve) }
        await #expect(throws: notFound) { try await store.undo(on: list, by: eve, expecting: nil) }
        await #expect(throws: notFound) { try await store.redo(on: list, by: eve, expecting: nil) }
        await #expect(throws: notFound) { try await store.nextSteps(on: list, of: eve) }
        await #expect(throws: notFound) { try await store.history(of: list, as: eve, before: nil, limit: 10) }
        await #expect(throws: notFound) { try await store.updates(of: list, as: eve) }
        await #expect(throws: notFound) { try await store.rename(list, to: "Mine", by: eve) }
        await #expect(throws: notFound) { try await store.share(list, with: eve, madeAt: .distantPast, by: eve) }
        await #expect(throws: notFound) { try await store.delete(list, by: eve) }
        // An id that names no list at all gives the same answer.
        await #expect(throws: notFound) { try await store.items(of: UUID(), as: Team.ann) }
        #expect(try await store.lists(of: eve).isEmpty)
        // Nothing changed.
        #expect(try await Self.titles(store, list) == ["Milk"])
        #expect(try await store.items(of: list, as: Team.ann).seq == 1)
    }

    @Test(arguments: SharedStoreKind.tested)
    func aMemberLeavesAListAndItStaysAsItIsForTheOthers(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk"], in: store)
        let (bob, cem) = (try Team.bob, try Team.cem)
        let left = try await store.unshare(list, with: bob, by: bob)
        #expect(left.access.members == [cem])
        await #expect(throws: AccountError.listNotFound) { try await store.items(of: list, as: bob) }
        #expect(try await fixture.open().lists(of: bob).isEmpty)
        #expect(try await Self.titles(store, list) == ["Milk"])
        #expect(try await store.lists(of: cem).map(\.id) == [list])
    }

    @Test(arguments: SharedStoreKind.tested)
    func anAccountMadeAgainWithARemovedOnesNameGetsNoneOfItsStepsToUndo(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk"], in: store)
        let (ann, bob) = (try Team.ann, try Team.bob)
        try await Self.rename(0, to: "Oat milk", on: list, by: bob, in: store)
        // bob's account is removed (the list stops being shared with it),
        // and an account made later with the same name is shared the list.
        try await store.unshare(list, with: bob, by: ann)
        let again = try await store.share(list, with: bob, madeAt: fixture.clock.now(), by: ann)

        #expect(again.access.earlierRows == ["bob": 2])
        #expect(try await store.nextSteps(on: list, of: bob).undo == nil)
        await #expect(throws: SharingError.nothingToUndo(author: "bob")) {
            try await store.undo(on: list, by: bob, expecting: nil)
        }
        #expect(try await Self.titles(store, list) == ["Oat milk"])

        // Its own step is its own, in a store opened afresh too.
        try await Self.rename(0, to: "Soy milk", on: list, by: bob, in: store)
        let reopened = try await Self.expectSameAfterReopening(fixture, store, list)
        #expect(try await reopened.lists(of: bob).first?.access.earlierRows == ["bob": 2])
        #expect(try await reopened.nextSteps(on: list, of: bob).undo?.seq == 3)
        try await reopened.undo(on: list, by: bob, expecting: 3)
        #expect(try await Self.titles(reopened, list) == ["Oat milk"])
        await #expect(throws: SharingError.nothingToUndo(author: "bob")) {
            try await reopened.undo(on: list, by: bob, expecting: nil)
        }
    }

    @Test(arguments: SharedStoreKind.tested)
    func anAccountSharedAListAgainKeepsItsOwnSteps(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk"], in: store)
        let (ann, bob) = (try Team.ann, try Team.bob)
        try await Self.rename(0, to: "Oat milk", on: list, by: bob, in: store)
        try await store.unshare(list, with: bob, by: ann)
        // The same account, made before its rows were written.
        let again = try await store.share(list, with: bob, madeAt: fixture.clock.date.addingTimeInterval(-3_600), by: ann)

        #expect(again.access.earlierRows.isEmpty)
        #expect(try await fixture.open().nextSteps(on: list, of: bob).undo?.seq == 2)
        try await store.undo(on: list, by: bob, expecting: 2)
        #expect(try await Self.titles(store, list) == ["Milk"])
    }

    @Test(arguments: SharedStoreKind.tested)
    func onlyTheOwnerSharesUnsharesRenamesAndDeletes(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk"], in: store)
        let (ann, bob, eve) = (try Team.ann, try Team.bob, try Team.eve)
        await #expect(throws: AccountError.ownerOnly(action: "share")) { try await store.share(list, with: eve, madeAt: .distantPast, by: bob) }
        await #expect(throws: AccountError.ownerOnly(action: "stop sharing")) { try await store.unshare(list, with: Team.cem, by: bob) }
        await #expect(throws: AccountError.ownerOnly(action: "rename")) { try await store.rename(list, to: "Bob's", by: bob) }
        await #expect(throws: AccountError.ownerOnly(action: "delete")) { try await store.delete(list, by: bob) }
        await #expect(throws: AccountError.alreadyMember("bob")) { try await store.share(list, with: bob, madeAt: .distantPast, by: ann) }
        await #expect(throws: AccountError.notMember("eve")) { try await store.unshare(list, with: eve, by: ann) }
        await #expect(throws: SharedListError.self) { try await store.rename(list, to: "  ", by: ann) }
        #expect(try await fixture.open().lists(of: bob).map(\.name) == ["Groceries"])

        #expect(try await store.rename(list, to: " Food ", by: ann).name == "Food")
        let unshared = try await store.unshare(list, with: bob, by: ann)
        #expect(unshared.members.map(\.key) == ["cem"])
        await #expect(throws: AccountError.listNotFound) { try await store.items(of: list, as: bob) }
        let reopened = try await fixture.open()
        #expect(try await reopened.lists(of: Team.cem) == [unshared])
        #expect(try await reopened.lists(of: bob).isEmpty)

        try await reopened.delete(list, by: ann)
        await #expect(throws: AccountError.listNotFound) { try await reopened.items(of: list, as: ann) }
        #expect(try await fixture.open().lists(of: ann).isEmpty)
    }

    @Test(arguments: SharedStoreKind.tested)
    func anAccountsListsAreThoseItOwnsOrIsAMemberOfOldestFirst(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let groceries = try await store.create(name: "Groceries", owner: Team.ann)
        let chores = try await store.create(name: "Chores", owner: Team.bob)
        let trip = try await store.create(name: "Trip", owner: Team.ann)
        let sharedChores = try await store.share(chores.id, with: AccountName("ANN"), madeAt: .distantPast, by: Team.bob)
        #expect(sharedChores.members.map(\.text) == ["ANN"])

        let lists = try await fixture.open().lists(of: AccountName("Ann"))
        #expect(lists.map(\.id) == [groceries.id, chores.id, trip.id])
        #expect(lists.map(\.owner.key) == ["ann", "bob", "ann"])
        #expect(try await fixture.open().lists(of: Team.bob) == [sharedChores])
        await #expect(throws: SharedListError.invalidName("A list's name must not be empty.")) {
            try await store.create(name: "", owner: Team.cem)
        }
        #expect(try await store.lists(of: Team.cem).isEmpty)
    }

    @Test(arguments: SharedStoreKind.tested)
    func aRefusedChangeAppendsNoRowAndChangesNothing(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk"], in: store)
        await #expect(throws: SharingError.refused(.nothingToChange("no change was given"))) {
            try await store.perform([], named: "Nothing", on: list, by: Team.bob)
        }
        await #expect(throws: SharingError.self) {
            // The second add of the same id is refused by the list.
            try await store.perform([.add(Team.item("Bread", 1)), .add(Team.item("Milk again", 0))], named: "Add", on: list, by: Team.bob)
        }
        await #expect(throws: SharingError.nothingToUndo(author: "bob")) { try await store.undo(on: list, by: Team.bob, expecting: nil) }
        await #expect(throws: SharingError.nothingToRedo(author: "ann")) { try await store.redo(on: list, by: Team.ann, expecting: nil) }

        let reopened = try await Self.expectSameAfterReopening(fixture, store, list)
        #expect(try await reopened.items(of: list, as: Team.bob).seq == 1)
        #expect(try await Self.titles(reopened, list) == ["Milk"])
        #expect(try await reopened.nextSteps(on: list, of: Team.bob) == SharedListNextSteps(undo: nil, redo: nil))
    }

    // MARK: History and updates

    @Test(arguments: SharedStoreKind.tested)
    func historyComesInPagesNewestFirstWithAuthorsAndNames(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["A", "B", "C"], in: store)
        try await Self.rename(0, to: "Z", on: list, by: Team.bob, in: store)
        try await store.undo(on: list, by: Team.bob, expecting: 4)

        let first = try await store.history(of: list, as: Team.cem, before: nil, limit: 2)
        #expect(first.map(\.seq) == [5, 4])
        #expect(first.map(\.author) == ["bob", "bob"])
        #expect(first.map(\.kind) == [.undo(of: 4), .change])
        #expect(first.map(\.name) == ["Rename", "Rename"])
        let rest = try await store.history(of: list, as: Team.cem, before: 4, limit: 10)
        #expect(rest.map(\.seq) == [3, 2, 1])
        #expect(rest.map(\.name) == ["Add “C”", "Add “B”", "Add “A”"])
        #expect(try await store.history(of: list, as: Team.cem, before: 1, limit: 10).isEmpty)
        await #expect(throws: SharedListError.self) { try await store.history(of: list, as: Team.cem, before: nil, limit: 0) }
    }

    /// A stream whose reader stopped is forgotten at once, not at the
    /// list's next row: the store stops following a list nobody reads.
    @Test(arguments: SharedStoreKind.tested)
    func aStreamWhoseReaderStoppedIsForgottenAtOnce(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk"], in: store)
        let reading = Task { for await _ in try await store.updates(of: list, as: Team.bob) {} }
        try await waitUntil("bob's stream open") { await Self.follows(store, list) }
        reading.cancel()
        try await waitUntil("bob's stream forgotten, with no row since") { await !Self.follows(store, list) }
    }

    /// Whether `store` has open update streams of `list`.
    private static func follows(_ store: any SharedListStore, _ list: UUID) async -> Bool {
        switch store {
        case let store as InMemorySharedListStore: await store.updateStreams.isHeard(list)
        case let store as SQLiteSharedListStore: await store.updateStreams.isHeard(list)
        case let store as PostgresSharedListStore: await store.updateStreams.isHeard(list)
        default: false
        }
    }

    @Test(arguments: SharedStoreKind.tested)
    func everyMembersStreamHearsOfEachRowAndAnOutsiderGetsNone(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let list = try await Self.list(["Milk"], in: store)
        let updates = try await store.updates(of: list, as: Team.bob)
        var iterator = updates.makeAsyncIterator()

        try await Self.rename(0, to: "Oat milk", on: list, by: Team.ann, in: store)
        try await store.undo(on: list, by: Team.ann, expecting: nil)

        let first = await iterator.next()
        let second = await iterator.next()
        #expect(first == SharedListUpdate(list: list, seq: 2))
        #expect(second == SharedListUpdate(list: list, seq: 3))
        // Unshared: bob's stream ends.
        try await store.unshare(list, with: Team.bob, by: Team.ann)
        let last = await iterator.next()
        #expect(last == nil)
    }

    @Test(.enabled(if: PostgresTestDatabase.url != nil, PostgresTestDatabase.missing))
    func aStreamOfOneInstanceHearsOfTheRowsAnotherAppends() async throws {
        let fixture = try SharedStoreFixture(.postgres)
        let (writer, reader) = (try await fixture.open(), try await fixture.open())
        let list = try await Self.list(["Milk"], in: writer)
        let heard = Locked<[SharedListUpdate]>([])
        let updates = try await reader.updates(of: list, as: Team.bob)
        let reading = Task {
            for await update in updates { heard.withLock { $0.append(update) } }
        }
        defer { reading.cancel() }

        let listening = try #require(reader as? PostgresSharedListStore)
        try await waitUntil("the reader's listener to connect") { await listening.listenerConnections > 0 }
        try await Self.rename(0, to: "Oat milk", on: list, by: Team.ann, in: writer)
        try await writer.undo(on: list, by: Team.ann, expecting: nil)

        try await waitUntil("the reader's stream to hear of row 3, got \(heard.value)") { heard.value.contains { $0.seq == 3 } }
        #expect(heard.value.map(\.seq) == [2, 3])
        #expect(heard.value.allSatisfy { $0.list == list })
    }

    /// Another instance (PostgreSQL), or another process over the same file
    /// (SQLite, within the poll), renames the list, stops sharing it with
    /// one member and deletes it: this store's streams hear each one.
    @Test(arguments: SharedStoreKind.persistent)
    func anotherInstancesRenameUnshareAndDeleteReachTheStreamsOfThisOne(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let (writer, reader) = (try await fixture.open(), try await fixture.open())
        let list = try await Self.list(["Milk"], in: writer)
        let heard = Locked<[String: [SharedListUpdate]]>([:])
        let ended = Locked<Set<String>>([])
        var readings: [Task<Void, Never>] = []
        for person in [try Team.bob, try Team.cem] {
            let updates = try await reader.updates(of: list, as: person)
            readings.append(Task {
                for await update in updates { heard.withLock { $0[person.key, default: []].append(update) } }
                _ = ended.withLock { $0.insert(person.key) }
            })
        }
        defer { readings.forEach { $0.cancel() } }
        // The reader holds the list, under its first name.
        #expect(try await reader.items(of: list, as: Team.cem).list.items.map(\.title) == ["Milk"])
        if let listening = reader as? PostgresSharedListStore {
            try await waitUntil("the reader's listener to connect") { await listening.listenerConnections > 0 }
        }

        // Renamed through the other instance: both streams hear it, and the reader has the new name.
        _ = try await writer.rename(list, to: "Weekend", by: Team.ann)
        try await waitUntil("both streams to hear the rename, got \(heard.value)") { heard.value.count == 2 }
        #expect(heard.value["bob"] == [SharedListUpdate(list: list, seq: 1)])
        #expect(try await reader.lists(of: Team.cem).map(\.name) == ["Weekend"])
        // No longer shared with bob: his stream ends, cem's goes on.
        _ = try await writer.unshare(list, with: Team.bob, by: Team.ann)
        try await waitUntil("bob's stream to end") { ended.value == ["bob"] }
        await #expect(throws: AccountError.listNotFound) { try await reader.items(of: list, as: Team.bob) }
        #expect(heard.value["cem"]?.count == 2)
        // Deleted: every stream ends.
        try await writer.delete(list, by: Team.ann)
        try await waitUntil("cem's stream to end") { ended.value == ["bob", "cem"] }
        await #expect(throws: AccountError.listNotFound) { try await reader.items(of: list, as: Team.cem) }
    }

    /// How many times each person's stream of ``SharedListStore/newLists(for:)`` told them, read as it goes.
    final class NewListsHeard: Sendable {
        let told = Locked<[String: Int]>([:])
        private let readings = Locked<[Task<Void, Never>]>([])

        init(_ people: [AccountName], of store: any SharedListStore) async {
            for person in people {
                let news = await store.newLists(for: person)
                let task = Task { [told] in
                    for await _ in news { told.withLock { $0[person.key, default: 0] += 1 } }
                }
                readings.withLock { $0.append(task) }
            }
        }

        deinit { readings.value.forEach { $0.cancel() } }

        /// How many times `person` was told.
        func count(_ person: AccountName) -> Int { told.value[person.key] ?? 0 }

        /// The streams of `people` of `store`, counted from when it listens:
        /// a PostgreSQL store's listener tells every stream once when it
        /// connects (news may have gone unheard before).
        static func listening(_ people: [AccountName], of store: any SharedListStore) async throws -> NewListsHeard {
            let heard = await NewListsHeard(people, of: store)
            if let listening = store as? PostgresSharedListStore {
                try await waitUntil("the listener to connect") { await listening.listenerConnections > 0 }
                try await waitUntil("the connection's news to be read") { people.allSatisfy { heard.count($0) == 1 } }
                heard.told.withLock { $0 = [:] }
            }
            return heard
        }
    }

    /// A list made for a person, or shared with them, is told to their
    /// streams of new lists; a rename, a step or a list made for someone
    /// else is not.
    @Test(.timeLimit(.minutes(1)), arguments: SharedStoreKind.tested)
    func aListMadeForOrSharedWithAPersonIsToldToTheirStreamsOfNewListsAndNothingElseIs(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let store = try await fixture.open()
        let heard = try await NewListsHeard.listening([try Team.ann, try Team.bob], of: store)
        let list = try await store.create(name: "Groceries", owner: Team.ann).id
        try await waitUntil("ann to be told of her list") { heard.count(try Team.ann) == 1 }
        try await store.rename(list, to: "Weekend", by: Team.ann)
        try await store.perform([.add(Team.item("Milk", 0))], named: "Add “Milk”", on: list, by: Team.ann)
        try await store.share(list, with: Team.bob, madeAt: .distantPast, by: Team.ann)
        try await waitUntil("bob to be told of the list shared with him") { heard.count(try Team.bob) == 1 }
        _ = try await store.create(name: "Cem's", owner: Team.cem)
        // Long enough for a wrong news (or a poll's) to arrive.
        try await Task.sleep(for: .milliseconds(600))
        #expect(heard.told.value == ["ann": 1, "bob": 1])
        if let listening = store as? PostgresSharedListStore { #expect(await listening.listenerConnections == 1) }
    }

    /// Another instance (PostgreSQL), or another process over the same file
    /// (SQLite, within the poll), makes a list or shares one: this store's
    /// streams of new lists tell the person, who then finds it.
    @Test(.timeLimit(.minutes(1)), arguments: SharedStoreKind.persistent)
    func aListMadeOrSharedThroughAnotherInstanceIsToldToThisOnesStreamsOfNewLists(_ kind: SharedStoreKind) async throws {
        let fixture = try SharedStoreFixture(kind)
        let (writer, reader) = (try await fixture.open(), try await fixture.open())
        let (ann, bob) = (try Team.ann, try Team.bob)
        let heard = try await NewListsHeard.listening([ann, bob], of: reader)
        let list = try await writer.create(name: "Groceries", owner: Team.ann).id
        try await waitUntil("ann to be told of the list made elsewhere") { heard.count(try Team.ann) == 1 }
        #expect(try await reader.lists(of: Team.ann).map(\.id) == [list])
        try await writer.share(list, with: Team.bob, madeAt: .distantPast, by: Team.ann)
        try await waitUntil("bob to be told of the list shared elsewhere") { heard.count(try Team.bob) == 1 }
        #expect(try await reader.lists(of: Team.bob).map(\.id) == [list])
        // Neither a rename nor a step is news.
        try await writer.rename(list, to: "Weekend", by: Team.ann)
        try await Task.sleep(for: .milliseconds(600))
        #expect(heard.count(try Team.ann) == 1)
        #expect(heard.count(try Team.bob) == 1)
    }

    @Test func aStreamOfOneSQLiteStoreHearsWithinThePollWhatAnotherProcessAppendsAndEndsWhenItDeletesTheList()
        async throws
    {
        // A second `rewind serve`, or `rewind todo --as`, over the same file.
        let fixture = try SharedStoreFixture(.sqlite)
        let (writer, reader) = (try await fixture.open(), try await fixture.open())
        let list = try await Self.list(["Milk"], in: writer)
        let heard = Locked<[SharedListUpdate]>([])
        let ended = Locked(false)
        let updates = try await reader.updates(of: list, as: Team.bob)
        let reading = Task {
            for await update in updates { heard.withLock { $0.append(update) } }
            ended.withLock { $0 = true }
        }
        defer { reading.cancel() }

        try await Self.rename(0, to: "Oat milk", on: list, by: Team.ann, in: writer)
        try await waitUntil("the reader's stream to hear of row 2, got \(heard.value)") { heard.value.contains { $0.seq == 2 } }
        try await writer.undo(on: list, by: Team.ann, expecting: nil)
        try await waitUntil("the reader's stream to hear of row 3, got \(heard.value)") { heard.value.contains { $0.seq == 3 } }
        #expect(heard.value == [SharedListUpdate(list: list, seq: 2), SharedListUpdate(list: list, seq: 3)])
        // What the stream told is what the reader reads.
        #expect(try await reader.items(of: list, as: Team.bob).list.items.map(\.title) == ["Milk"])

        try await writer.delete(list, by: Team.ann)
        try await waitUntil("the reader's stream to end") { ended.value }
        #expect(heard.value.count == 2)
    }

    // MARK: Random use

    /// Three people add, rename, complete, delete, move, undo and redo at
    /// random through the store, which is reopened at random points; a
    /// ``SharedList`` in memory, given the same operations at the dates the
    /// store gave its rows, is the reference: after every operation the
    /// store's row, items and each person's next undo and redo equal it.
    @Test(arguments: SharedStoreKind.tested, [1, 2, 3] as [UInt64])
    func randomUseThroughTheStoreMatchesTheListInMemoryAcrossReopens(_ kind: SharedStoreKind, seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let fixture = try SharedStoreFixture(kind)
        var store = try await fixture.open()
        let list = try await store.create(name: "Random", owner: Team.ann).id
        try await store.share(list, with: Team.bob, madeAt: .distantPast, by: Team.ann)
        try await store.share(list, with: Team.cem, madeAt: .distantPast, by: Team.ann)
        var reference = SharedList()
        var nextID = 0
        var reopens = 0
        let people = try Team.people
        for round in 0..<120 {
            let person = people[Int.random(in: 0..<people.count, using: &random)]
            let before = reference.list
            let roll = Int.random(in: 0..<100, using: &random)
            let expected: Result<SharedStep, SharingError>
            let actual: Result<SharedStep, SharingError>
            func outcome(_ body: () async throws -> SharedStep) async throws -> Result<SharedStep, SharingError> {
                do { return .success(try await body()) } catch let error as SharingError { return .failure(error) }
            }
            switch roll {
            case 0..<45 where before.isEmpty, 0..<15:
                nextID += 1
                let item = try Team.item("Item \(nextID)", nextID)
                let change = TodoList.Change.insert(item, at: Int.random(in: 0...before.count, using: &random))
                actual = try await outcome { try await store.perform([change], named: "Add", on: list, by: person) }
                expected = Result { () throws(SharingError) in
                    try reference.perform([change], named: "Add", by: person.key, at: try actual.get().date)
                }
            case 0..<45:
                let id = try #require(before.item(at: Int.random(in: 0..<before.count, using: &random))).id
                let choice = Int.random(in: 0..<4, using: &random)
                let change: TodoList.Change =
                    switch choice {
                    case 0: .update(id, [.title(to: "\(person.key) \(round)")], at: Team.date)
                    case 1: .update(id, [before[id: id]?.isCompleted == true ? .reopen : .complete], at: Team.date)
                    case 2: .remove(id)
                    default: .move(id, to: Int.random(in: 0..<before.count, using: &random))
                    }
                let key: String? = choice == 0 ? "title \(id)" : nil
                actual = try await outcome {
                    try await store.perform([change], named: "Change", coalescingKey: key, on: list, by: person)
                }
                expected = Result { () throws(SharingError) in
                    try reference.perform([change], named: "Change", by: person.key, at: try actual.get().date, coalescingKey: key)
                }
            case 45..<75:
                // Half the time the button named the next step; else a stale number (a double click).
                let named = Bool.random(using: &random) ? try reference.nextUndo(of: person.key)?.seq : Int.random(in: 1...3, using: &random)
                actual = try await outcome { try await store.undo(on: list, by: person, expecting: named) }
                let date = (try? actual.get().date) ?? Team.date
                expected = Result { () throws(SharingError) in try reference.undo(by: person.key, at: date, expecting: named) }
            default:
                let named = Bool.random(using: &random) ? try reference.nextRedo(of: person.key)?.seq : nil
                actual = try await outcome { try await store.redo(on: list, by: person, expecting: named) }
                let date = (try? actual.get().date) ?? Team.date
                expected = Result { () throws(SharingError) in try reference.redo(by: person.key, at: date, expecting: named) }
            }
            #expect(actual == expected, "round \(round) (seed \(seed))")
            if Int.random(in: 0..<10, using: &random) == 0 {
                store = try await fixture.open()
                reopens += 1
            }
            let items = try await store.items(of: list, as: person)
            #expect(items.list == reference.list, "round \(round) (seed \(seed))")
            #expect(items.seq == reference.seq)
            for other in people {
                let next = try await store.nextSteps(on: list, of: other)
                #expect(try next.undo == reference.nextUndo(of: other.key), "round \(round) (seed \(seed))")
                #expect(try next.redo == reference.nextRedo(of: other.key), "round \(round) (seed \(seed))")
            }
        }
        #expect(kind == .memory || reopens > 0)
        let reopened = try await fixture.open()
        let log = try await reopened.history(of: list, as: Team.bob, before: nil, limit: 500)
        let expected = try reference.rows(1..<(reference.seq + 1))
        #expect(Array(log.reversed()) == expected.map(\.summary))
        #expect(try await fixture.savedRows(of: list, in: reopened) == expected)
    }
}

/// The shared lists' migration of the SQLite file (`v5-shared-lists`).
@Suite("SQLite shared lists migration")
struct SQLiteSharedListsMigrationTests {
    private func migrations(_ url: URL) async throws -> [String] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try await queue.read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ")
        }.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
    }

    @Test func aFileOfThePreviousSchemaGetsTheTablesAndKeepsItsListAndAccounts() async throws {
        let fixture = try StoreFixture(.sqlite)
        let store = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        try await store.change(.add(try fixture.item("Buy milk")))
        try await SQLiteAccountStore.open(url: fixture.fileURL).add(name: Team.ann, passwordHash: "ann-1")
        let queue = try DatabaseQueue(path: fixture.fileURL.path)
        try await queue.write { db in
            try db.execute(sql: """
                DROP TABLE shared_writer; DROP TABLE shared_step; DROP TABLE shared_item; DROP TABLE shared_member;
                DROP TABLE shared_list; DROP TABLE calculator_step; DROP TABLE calculator;
                DELETE FROM grdb_migrations
                WHERE identifier IN ('v5-shared-lists', 'v6-shared-step-heads', 'v7-shared-step-rowid', 'v8-calculators', 'v9-meta-counts', 'v10-earlier-rows')
                """)
        }
        try queue.close()
        #expect(try await migrations(fixture.fileURL) == ["v1", "v2", "v3", "v4", "v5"])

        let lists = try await SQLiteSharedListStore.open(url: fixture.fileURL)
        let groceries = try await lists.create(name: "Groceries", owner: Team.ann)

        #expect(
            try await migrations(fixture.fileURL) == ["v1", "v2", "v3", "v4", "v5", "v5-shared-lists", "v6-shared-step-heads", "v7-shared-step-rowid", "v8-calculators", "v9-meta-counts", "v10-earlier-rows"])
        #expect(try await SQLiteSharedListStore.open(url: fixture.fileURL).lists(of: Team.ann) == [groceries])
        #expect(try await SQLiteAccountStore.open(url: fixture.fileURL).passwordHash(for: Team.ann) == "ann-1")
        let reopened = try SQLiteStore(url: fixture.fileURL, pollInterval: nil)
        #expect(try await reopened.state().todos.items.map(\.title) == ["Buy milk"])
        #expect(try await reopened.undo() == "Add “Buy milk”")
    }

    /// A file of the schema before the heads' index gets it, keeps its
    /// lists, and a list's heads are then read from the index alone.
    @Test func aFileWithoutTheHeadsIndexGetsItAndOpeningReadsTheHeadsFromIt() async throws {
        let fixture = try StoreFixture(.sqlite)
        let lists = try SQLiteSharedListStore(url: fixture.fileURL)
        let list = try await lists.create(name: "Groceries", owner: Team.ann)
        try await lists.perform([.add(Team.item("Milk", 0))], named: "Add “Milk”", on: list.id, by: Team.ann)
        let queue = try DatabaseQueue(path: fixture.fileURL.path)
        try await queue.write { db in
            try db.execute(sql: """
                DROP INDEX shared_step_head; DROP TABLE calculator_step; DROP TABLE calculator;
                ALTER TABLE shared_member DROP COLUMN earlier;
                DELETE FROM grdb_migrations WHERE identifier IN ('v6-shared-step-heads', 'v7-shared-step-rowid', 'v8-calculators', 'v9-meta-counts', 'v10-earlier-rows')
                """)
        }
        try queue.close()
        #expect(try await migrations(fixture.fileURL).last == "v5-shared-lists")

        let reopened = try SQLiteSharedListStore(url: fixture.fileURL)
        #expect(try await reopened.nextSteps(on: list.id, of: Team.ann).undo?.name == "Add “Milk”")
        #expect(try await migrations(fixture.fileURL).last == "v10-earlier-rows")
        let check = try DatabaseQueue(path: fixture.fileURL.path)
        defer { try? check.close() }
        let plan = try await check.read { db in
            try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN " + SQLiteSharedListStore.headsQuery, arguments: [list.id.uuidString]
            ).map { row -> String in row["detail"] }
        }
        #expect(plan.contains { $0.contains("COVERING INDEX shared_step_head") }, "\(plan)")
    }

    /// A file whose log is a table WITHOUT ROWID (up to `v6-shared-step-heads`)
    /// is rebuilt with row ids when opened: every row as it was, and a row
    /// found by its key without reading its neighbours' large patches.
    @Test func aLogWithoutRowIDsIsRebuiltWithThemAndEveryRowKept() async throws {
        let fixture = try StoreFixture(.sqlite)
        let lists = try SQLiteSharedListStore(url: fixture.fileURL)
        let list = try await lists.create(name: "Groceries", owner: Team.ann)
        try await lists.share(list.id, with: Team.bob, madeAt: .distantPast, by: Team.ann)
        let items = try (0..<30).map { try Team.item("Item \($0)", $0) }
        try await lists.perform(items.map { .add($0) }, named: "Add 30", on: list.id, by: Team.ann)
        try await lists.perform([.completeAll(at: TestClock.start)], named: "Complete all", on: list.id, by: Team.bob)
        try await lists.perform([.add(Team.item("Milk", 40))], named: "Add “Milk”", on: list.id, by: Team.ann)
        let rows = try await lists.savedRows(of: list.id)
        // The file as the version before wrote it: the log WITHOUT ROWID, migrations up to v6.
        let queue = try DatabaseQueue(path: fixture.fileURL.path)
        try await queue.write { db in
            try db.execute(sql: """
                CREATE TABLE shared_step_old (
                \(TodoDatabase.sharedStepColumns)
                ) WITHOUT ROWID;
                INSERT INTO shared_step_old SELECT * FROM shared_step;
                DROP TABLE shared_step;
                ALTER TABLE shared_step_old RENAME TO shared_step;
                CREATE INDEX shared_step_head ON shared_step (list, seq, author, kind, reverts, joins);
                DROP TABLE calculator_step; DROP TABLE calculator;
                ALTER TABLE shared_member DROP COLUMN earlier;
                DELETE FROM grdb_migrations WHERE identifier IN ('v7-shared-step-rowid', 'v8-calculators', 'v9-meta-counts', 'v10-earlier-rows')
                """)
        }
        #expect(try await queue.read { db in try Self.logTable(db) }.contains("WITHOUT ROWID"))
        try queue.close()

        let reopened = try SQLiteSharedListStore(url: fixture.fileURL)
        #expect(try await reopened.savedRows(of: list.id) == rows)
        #expect(try await migrations(fixture.fileURL).last == "v10-earlier-rows")
        #expect(try await reopened.undo(on: list.id, by: Team.bob, expecting: nil).kind == .undo(of: 2))
        #expect(try await reopened.items(of: list.id, as: Team.ann).list.items.allSatisfy { !$0.isCompleted })
        let check = try DatabaseQueue(path: fixture.fileURL.path)
        defer { try? check.close() }
        let (table, plan) = try await check.read { db in
            let plan = try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN SELECT author FROM shared_step WHERE list = ? AND seq = ?",
                arguments: [list.id.uuidString, 2]
            ).map { row -> String in row["detail"] }
            return (try Self.logTable(db), plan)
        }
        #expect(!table.contains("WITHOUT ROWID"), "\(table)")
        #expect(plan.contains { $0.contains("INDEX sqlite_autoindex_shared_step_1") }, "\(plan)")
    }

    /// The SQL that made the log's table.
    private static func logTable(_ db: Database) throws -> String {
        try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'shared_step'") ?? ""
    }

    @Test func theVersionBeforeRefusesAFileWithSharedListsAndLeavesItAsItIs() async throws {
        let fixture = try StoreFixture(.sqlite)
        let lists = try SQLiteSharedListStore(url: fixture.fileURL)
        let list = try await lists.create(name: "Groceries", owner: Team.ann)
        try await lists.perform([.add(Team.item("Milk", 0))], named: "Add “Milk”", on: list.id, by: Team.ann)
        var before = DatabaseMigrator()
        for identifier in ["v1", "v2", "v3", "v4", "v5"] { before.registerMigration(identifier) { _ in } }
        let bytes = try Data(contentsOf: fixture.fileURL)
        #expect(
            throws: StoreError.newerSchema(path: fixture.fileURL.path, unknownMigrations: ["v5-shared-lists", "v6-shared-step-heads", "v7-shared-step-rowid", "v8-calculators", "v9-meta-counts", "v10-earlier-rows"])
        ) {
            try DatabaseFile.check(fixture.fileURL, migrator: before)
        }
        #expect(try Data(contentsOf: fixture.fileURL) == bytes)
    }
}
