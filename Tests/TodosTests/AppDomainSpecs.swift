import Foundation
import TestSupport
import Testing
@testable import Todos

/// Collects what a receiver of the app domain sees.
final class Inbox: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [Message] = []

    var messages: [Message] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    var handler: MessageHandler {
        { [self] message in
            lock.lock()
            received.append(message)
            lock.unlock()
        }
    }
}

/// The app domain's specifications: add, update, remove, list, undo and redo,
/// then toggle all, clear completed and move.
@Suite("ItemsApp")
struct AppDomainSpecs {
    let clock = TestClock()
    let ids = IncrementingIDs()
    let store: InMemoryStore
    let app: AppDomain
    let i0: TodoItem
    let i1: TodoItem

    init() throws {
        store = InMemoryStore(now: clock.now)
        app = AppDomain(store: store, now: clock.now, makeID: ids.makeID)
        i0 = try Fixtures.item("hey Ho", 100)
        i1 = try Fixtures.item("Let's go", 101)
    }

    var items: [TodoItem] {
        get async throws { try await store.state().todos.items }
    }

    @Test("uninitialized: has no todos") func empty() async throws {
        #expect(try await items.isEmpty)
    }

    @Test("add: has a todo item") func add() async throws {
        let added = try await app.send(.add(i0))
        #expect(try await items == [i0])
        #expect(added == i0)
    }

    @Test("add, add: has two todo items in order") func addTwice() async throws {
        try await app.send(.add(i0))
        try await app.send(.add(i1))
        #expect(try await items == [i0, i1])
    }

    @Test("add, add, remove: has the other item") func addAddRemove() async throws {
        try await app.send(.add(i0))
        try await app.send(.add(i1))
        let removed = try await app.send(.remove(i0))
        #expect(try await items.map(\.id) == [i1.id])
        #expect(removed == [i0])
    }

    @Test("remove twice fails silently, and says so") func removeTwice() async throws {
        try await app.send(.add(i0))
        try await app.send(.add(i1))
        try await app.send(.remove(i0))
        await #expect(throws: TodoFailure.notFound([i0.id])) { try await app.send(.remove(i0)) }
        #expect(try await items.map(\.id) == [i1.id])
        #expect(await store.history().steps.count == 3)
    }

    @Test("remove the only item, then remove it again: still empty") func removeOnly() async throws {
        try await app.send(.add(i0))
        try await app.send(.remove(i0))
        #expect(try await items.isEmpty)
        _ = try? await app.send(.remove(i0))
        #expect(try await items.isEmpty)
    }

    @Test("update: changes the title, keeps id, state and due date") func update() async throws {
        try await app.send(.add(i0))
        try await app.send(.update(try i0.alter(.title(to: "Hey Ho!"), at: clock.date)))
        let items = try await items
        #expect(items.count == 1)
        #expect(items.first?.title == "Hey Ho!")
        #expect(items.first?.id == i0.id)
        #expect(items.first?.state == i0.state)
        #expect(items.first?.due == i0.due)
    }

    @Test("update of an inexistent item will not update anything") func updateMissing() async throws {
        try await app.send(.add(i0))
        let stranger = try Fixtures.item("new item", 102)
        _ = try? await app.send(.update(stranger))
        await #expect(throws: TodoFailure.notFound([stranger.id])) { try await app.send(.alter(stranger.id, [.complete])) }
        #expect(try await !items.map(\.title).contains("new item"))
        #expect(try await items.count == 1)
    }

    @Test("create makes an item with the injected id and clock") func create() async throws {
        try await app.send(.create(.init(title: " Buy milk "), at: nil))
        #expect(try await items.first?.id == Fixtures.id(1))
        #expect(try await items.first?.title == "Buy milk")
        #expect(try await items.first?.created == clock.date)
        await #expect(throws: TodoFailure.invalid(.emptyTitle)) { try await app.send(.create(.init(title: "  "), at: nil)) }
        #expect(try await items.count == 1)
    }

    @Test("alter stamps the clock; completing several is one step") func alterAndComplete() async throws {
        try await app.send(.add(i0))
        try await app.send(.add(i1))
        clock.advance()
        try await app.send(.alter(i0.id, [.details(to: "loud")]))
        #expect(try await items.first?.changed == clock.date)
        let updated = try await app.send(.complete([i0.id, i1.id]))
        #expect(await store.history().undoActionName == "Complete 2 items")
        #expect(Set(updated.map(\.id)) == [i0.id, i1.id])
        #expect(updated.allSatisfy { $0.isCompleted })
    }

    @Test("toggle items: each is completed when active and reopened when completed, one step named for what it did")
    func toggleItems() async throws {
        for item in [i0, i1] { try await app.send(.add(item)) }
        let first = try await app.send(.toggle([i0.id]))
        #expect(first.map(\.id) == [i0.id])
        #expect(first.map(\.isCompleted) == [true])
        #expect(await store.history().undoActionName == "Complete “hey Ho”")
        let both = try await app.send(.toggle([i0.id, i1.id]))
        #expect(both.map(\.id) == [i0.id, i1.id])
        #expect(both.map(\.isCompleted) == [false, true])
        #expect(await store.history().undoActionName == "Edit 2 items")
        #expect(try await app.send(.undo) == .undone(name: "Edit 2 items"))
        #expect(try await items.map(\.isCompleted) == [true, false])
        await #expect(throws: TodoFailure.self) { try await app.send(.toggle([Fixtures.id(9)])) }
        // Refused, and nothing recorded: four steps, the last undone.
        #expect(await store.history().steps.count == 4)
        #expect(await store.history().position == 3)
    }

    @Test("toggle all, clear completed, move, and undo/redo through the app domain") func extensions() async throws {
        let i2 = try Fixtures.item("third", 102)
        for item in [i0, i1, i2] { try await app.send(.add(item)) }
        try await app.send(.move(i2.id, to: 0))
        #expect(try await items.map(\.id) == [i2.id, i0.id, i1.id])
        try await app.send(.complete([i0.id]))
        try await app.send(.removeCompleted)
        #expect(try await items.map(\.id) == [i2.id, i1.id])
        #expect(await store.history().undoActionName == "Clear 1 completed item")
        #expect(try await app.send(.undo) == .undone(name: "Clear 1 completed item"))
        #expect(try await items.map(\.id) == [i2.id, i0.id, i1.id])
        try await app.send(.completeAll)
        #expect(try await items.allSatisfy { $0.isCompleted })
        try await app.send(.reopenAll)
        #expect(try await !items.contains { $0.isCompleted })
        try await app.send(.jump(to: 0))
        #expect(try await items.isEmpty)
        #expect(try await app.send(.undo) == .nothingToUndo)
        #expect(try await app.send(.redo) == .redone(name: "Add “hey Ho”"))
        await #expect(throws: TodoFailure.history(.positionOutOfRange(99, valid: 0...7))) {
            try await app.send(.jump(to: 99))
        }
    }

    @Test("move an item before or after another, as one step that undo takes back") func moveNextToAnother() async throws {
        let i2 = try Fixtures.item("third", 102)
        let i3 = try Fixtures.item("fourth", 103)
        for item in [i0, i1, i2, i3] { try await app.send(.add(item)) }
        let moved = try await app.send(.move(i3.id, before: i1.id))
        #expect(moved.id == i3.id)
        #expect(try await items.map(\.id) == [i0.id, i3.id, i1.id, i2.id])
        #expect(await store.history().undoActionName == "Move “fourth”")
        try await app.send(.move(i0.id, after: i2.id))
        #expect(try await items.map(\.id) == [i3.id, i1.id, i2.id, i0.id])
        try await app.send(.move(i2.id, after: i3.id))
        #expect(try await items.map(\.id) == [i3.id, i2.id, i1.id, i0.id])
        try await app.send(.move(i0.id, to: 0))
        #expect(try await items.map(\.id) == [i0.id, i3.id, i2.id, i1.id])
        #expect(try await app.send(.undo) == .undone(name: "Move “\(i0.title)”"))
        #expect(try await app.send(.undo) == .undone(name: "Move “third”"))
        #expect(try await items.map(\.id) == [i3.id, i1.id, i2.id, i0.id])
    }

    @Test("a move that would leave the item where it is, or names no other item, is refused") func moveRefusals() async throws {
        let i2 = try Fixtures.item("third", 102)
        for item in [i0, i1, i2] { try await app.send(.add(item)) }
        let steps = await store.history().steps.count
        await #expect(throws: TodoFailure.nothingToChange("“\(i0.title)” is already before “\(i1.title)”")) {
            try await app.send(.move(i0.id, before: i1.id))
        }
        await #expect(throws: TodoFailure.nothingToChange("“third” is already after “\(i1.title)”")) {
            try await app.send(.move(i2.id, after: i1.id))
        }
        await #expect(throws: TodoFailure.nothingToChange("“third” is already at the bottom")) {
            try await app.send(.move(i2.id, to: 2))
        }
        await #expect(throws: TodoFailure.nothingToChange("“\(i1.title)” is already at position 1 (0 is the top)")) {
            try await app.send(.move(i1.id, to: 1))
        }
        await #expect(throws: TodoFailure.invalid(.movedNextToItself(i1.id))) { try await app.send(.move(i1.id, after: i1.id)) }
        let stranger = Fixtures.id(99)
        await #expect(throws: TodoFailure.invalid(.neighbourNotFound(stranger))) { try await app.send(.move(i1.id, after: stranger)) }
        await #expect(throws: TodoFailure.notFound([stranger])) { try await app.send(.move(stranger, before: i1.id)) }
        await #expect(throws: TodoFailure.invalid(.positionOutOfRange(3, valid: 0...2))) { try await app.send(.move(i1.id, to: 3)) }
        #expect(await store.history().steps.count == steps, "no step for a refused move")
        #expect(try await items.map(\.id) == [i0.id, i1.id, i2.id])
    }

    @Test("jump to a step of the tree: the step's position in a store without branches") func jumpToStep() async throws {
        for item in [i0, i1] { try await app.send(.add(item)) }
        let tree = await store.historyTree()
        #expect(tree.steps.map(\.number) == [1, 2])
        #expect(try await app.send(.jumpToStep(tree.steps[0].number)) == .jumpedToStep(1))
        #expect(try await items == [i0])
        #expect(await store.history().position == 1)
        #expect(try await app.send(.jumpToStep(0)) == .jumpedToStep(0))
        #expect(try await items.isEmpty)
        for number: Int64 in [3, -1, .max] {
            await #expect(throws: TodoFailure.history(.stepNotFound(number))) { try await app.send(.jumpToStep(number)) }
        }
        #expect(try await items.isEmpty)
        #expect(await store.history().steps.count == 2)
    }

    @Test("import replaces all or merges by id, as one step") func importing() async throws {
        try await app.send(.add(i0))
        let renamed = try i0.alter(.title(to: "renamed"), at: clock.date)
        let merged = try await app.send(.merge([renamed, i1]))
        #expect(try await items.map(\.title) == ["renamed", "Let's go"])
        #expect(merged == ListImporter.Response(imported: 2, removed: 0))
        // The list held i0 (renamed) and i1: one of them goes.
        #expect(try await app.send(.replaceAll([i1])) == ListImporter.Response(imported: 1, removed: 1))
        #expect(try await items == [i1])
        #expect(await store.history().undoActionName == "Import 1 item")
        await #expect(throws: TodoFailure.invalid(.duplicateItem(i1.id))) { try await app.send(.replaceAll([i1, i1])) }
        // An import of what the list already is makes no step.
        let steps = await store.history().steps.count
        await #expect(throws: TodoFailure.nothingToChange("the list already holds this item as it is")) {
            try await app.send(.replaceAll([i1]))
        }
        await #expect(throws: TodoFailure.nothingToChange("the list already holds this item as it is")) {
            try await app.send(.merge([i1]))
        }
        #expect(await store.history().steps.count == steps)
        try await app.send(.undo)
        try await app.send(.undo)
        #expect(try await items == [i0])
    }

    @Test("receivers get every message") func receivers() async throws {
        let seen = Inbox()
        let app = AppDomain(store: store, receivers: [seen.handler], now: clock.now, makeID: ids.makeID)
        try await app.send(.undo)
        #expect(seen.messages == [.history(.undo)])
    }
}
