import Foundation
import Testing
@testable import Todos

/// Collects what the root handler receives.
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

/// The seed's app-domain specifications, plus the extensions.
@Suite("ItemsApp")
struct AppDomainSpecs {
    let clock = TestClock()
    let ids = IncrementingIDs()
    let store: InMemoryStore
    let inbox = Inbox()
    let app: MessageHandler
    let i0: TodoItem
    let i1: TodoItem

    init() throws {
        store = InMemoryStore(now: clock.function)
        app = createAppDomain(store: store, receivers: [], rootHandler: inbox.handler, now: clock.function, makeID: ids.function)
        i0 = try Fixtures.item("hey Ho", 100)
        i1 = try Fixtures.item("Let's go", 101)
    }

    var items: [TodoItem] { store.state().todos.items }

    @Test("uninitialized: has no todos") func empty() {
        #expect(items.isEmpty)
    }

    @Test("add: has a todo item") func add() {
        app(.todos(.cmd(.add(item: i0))))
        #expect(items == [i0])
        #expect(inbox.messages == [.todos(.ack(.added(item: i0)))])
    }

    @Test("add, add: has two todo items in order") func addTwice() {
        app(.todos(.cmd(.add(item: i0))))
        app(.todos(.cmd(.add(item: i1))))
        #expect(items == [i0, i1])
    }

    @Test("add, add, remove: has the other item") func addAddRemove() {
        app(.todos(.cmd(.add(item: i0))))
        app(.todos(.cmd(.add(item: i1))))
        app(.todos(.cmd(.remove(item: i0))))
        #expect(items.map(\.id) == [i1.id])
        #expect(inbox.messages.last == Message.todos(.ack(.removed(items: [i0]))))
    }

    @Test("remove twice fails silently, and says so") func removeTwice() {
        app(.todos(.cmd(.add(item: i0))))
        app(.todos(.cmd(.add(item: i1))))
        app(.todos(.cmd(.remove(item: i0))))
        app(.todos(.cmd(.remove(item: i0))))
        #expect(items.map(\.id) == [i1.id])
        #expect(inbox.messages.last == Message.todos(.ack(.failed(.notFound([i0.id])))))
        #expect(store.history().steps.count == 3)
    }

    @Test("remove the only item, then remove it again: still empty") func removeOnly() {
        app(.todos(.cmd(.add(item: i0))))
        app(.todos(.cmd(.remove(item: i0))))
        #expect(items.isEmpty)
        app(.todos(.cmd(.remove(item: i0))))
        #expect(items.isEmpty)
    }

    @Test("update: changes the title, keeps id, state and due date") func update() throws {
        app(.todos(.cmd(.add(item: i0))))
        app(.todos(.cmd(.update(item: try i0.alter(.title(to: "Hey Ho!"), at: clock.now)))))
        #expect(items.count == 1)
        #expect(items.first?.title == "Hey Ho!")
        #expect(items.first?.id == i0.id)
        #expect(items.first?.state == i0.state)
        #expect(items.first?.due == i0.due)
    }

    @Test("update of an inexistent item will not update anything") func updateMissing() throws {
        app(.todos(.cmd(.add(item: i0))))
        let stranger = try Fixtures.item("new item", 102)
        app(.todos(.cmd(.update(item: stranger))))
        app(.todos(.cmd(.alter(id: stranger.id, changes: [.finish]))))
        #expect(!items.map(\.title).contains("new item"))
        #expect(items.count == 1)
        #expect(inbox.messages.last == Message.todos(.ack(.failed(.notFound([stranger.id])))))
    }

    @Test("create makes an item with the injected id and clock") func create() {
        app(.todos(.cmd(.create(draft: .init(title: " Buy milk "), at: nil))))
        #expect(items.first?.id == Fixtures.id(1))
        #expect(items.first?.title == "Buy milk")
        #expect(items.first?.created == clock.now)
        app(.todos(.cmd(.create(draft: .init(title: "  "), at: nil))))
        #expect(inbox.messages.last == Message.todos(.ack(.failed(.invalid(.emptyTitle)))))
        #expect(items.count == 1)
    }

    @Test("alter stamps the clock; finish several is one step") func alterAndFinish() {
        app(.todos(.cmd(.add(item: i0))))
        app(.todos(.cmd(.add(item: i1))))
        clock.advance()
        app(.todos(.cmd(.alter(id: i0.id, changes: [.details(to: "loud")]))))
        #expect(items.first?.changed == clock.now)
        app(.todos(.cmd(.finish(ids: [i0.id, i1.id]))))
        #expect(store.history().undoActionName == "Complete 2 items")
        if case .todos(.ack(.updated(let updated))) = inbox.messages.last {
            #expect(Set(updated.map(\.id)) == [i0.id, i1.id])
            #expect(updated.allSatisfy { $0.isFinished })
        } else {
            Issue.record("expected an updated ack, got \(String(describing: inbox.messages.last))")
        }
    }

    @Test("toggle all, clear completed, move, and undo/redo through messages") func extensions() throws {
        let i2 = try Fixtures.item("third", 102)
        for item in [i0, i1, i2] { app(.todos(.cmd(.add(item: item)))) }
        app(.todos(.cmd(.move(id: i2.id, to: 0))))
        #expect(items.map(\.id) == [i2.id, i0.id, i1.id])
        app(.todos(.cmd(.finish(ids: [i0.id]))))
        app(.todos(.cmd(.clearFinished)))
        #expect(items.map(\.id) == [i2.id, i1.id])
        #expect(store.history().undoActionName == "Clear 1 completed item")
        app(.history(.cmd(.undo)))
        let expected1: Message = .history(.ack(.undone(name: "Clear 1 completed item")))
        #expect(inbox.messages.last == expected1)
        #expect(items.map(\.id) == [i2.id, i0.id, i1.id])
        app(.todos(.cmd(.finishAll)))
        #expect(items.allSatisfy { $0.isFinished })
        app(.todos(.cmd(.unfinishAll)))
        #expect(!items.contains { $0.isFinished })
        app(.history(.cmd(.jump(to: 0))))
        #expect(items.isEmpty)
        app(.history(.cmd(.undo)))
        let expected2: Message = .history(.ack(.nothingToUndo))
        #expect(inbox.messages.last == expected2)
        app(.history(.cmd(.redo)))
        let expected3: Message = .history(.ack(.redone(name: "Add “hey Ho”")))
        #expect(inbox.messages.last == expected3)
        app(.history(.cmd(.jump(to: 99))))
        let expected4: Message = .history(.ack(.failed(.history(.positionOutOfRange(99, valid: 0...7)))))
        #expect(inbox.messages.last == expected4)
    }

    @Test("import replaces all or merges by id, as one step") func importing() throws {
        app(.todos(.cmd(.add(item: i0))))
        let renamed = try i0.alter(.title(to: "renamed"), at: clock.now)
        app(.todos(.cmd(.merge(items: [renamed, i1]))))
        #expect(items.map(\.title) == ["renamed", "Let's go"])
        #expect(inbox.messages.last == Message.todos(.ack(.imported(count: 2))))
        app(.todos(.cmd(.replaceAll(items: [i1]))))
        #expect(items == [i1])
        #expect(store.history().undoActionName == "Import 1 item")
        app(.todos(.cmd(.replaceAll(items: [i1, i1]))))
        #expect(inbox.messages.last == Message.todos(.ack(.failed(.invalid(.duplicateItem(i1.id))))))
        app(.history(.cmd(.undo)))
        app(.history(.cmd(.undo)))
        #expect(items == [i0])
    }

    @Test("receivers get every message") func receivers() {
        let seen = Inbox()
        let app = createAppDomain(store: store, receivers: [seen.handler], rootHandler: { _ in }, now: clock.function, makeID: ids.function)
        app(.history(.cmd(.undo)))
        #expect(seen.messages == [.history(.cmd(.undo))])
    }
}
