import Foundation
import TestSupport
import Testing

@testable import Todos

/// New text may hold any character but control characters other than tab and
/// line breaks; what was saved before the rule keeps opening.
@Suite("Typed text: control characters are refused where text comes in")
struct TypedTextSpecs {
    let clock = TestClock()
    let ids = IncrementingIDs()
    let store: InMemoryStore
    let app: AppDomain

    init() {
        store = InMemoryStore(now: clock.now)
        app = AppDomain(store: store, now: clock.now, makeID: ids.makeID)
    }

    /// An item whose title holds `character`, made as a store restores one
    /// (no check of typed text there).
    func restored(title: String) throws -> TodoItem {
        try TodoItem(
            restoring: Fixtures.id(7), title: title, details: "", state: .active, due: .unknown, location: .unknown,
            created: Fixtures.start, changed: Fixtures.start)
    }

    @Test("only C0 and C1 controls other than tab, line feed and carriage return are found")
    func whichCharacters() {
        for allowed in ["plain", "tab\there", "two\nlines", "crlf\r\n", "emoji 🥛", "ünïcödé", "\u{200B}zero width", ""] {
            #expect(TypedText.firstControlCharacter(in: allowed) == nil, "\(allowed.debugDescription)")
        }
        for (text, code) in [("nul\u{0}", 0), ("bell\u{7}", 7), ("\u{1B}[31mred", 0x1B), ("del\u{7F}", 0x7F), ("c1\u{85}", 0x85)] {
            #expect(TypedText.firstControlCharacter(in: text)?.value == UInt32(code), "\(text.debugDescription)")
        }
        #expect(TypedText.name(of: 0) == "U+0000")
        #expect(TypedText.name(of: 0x9F) == "U+009F")
    }

    @Test("a quoted title closes the runs in another direction it opens, so the quote stays after it")
    func quotedTitleClosesDirections() throws {
        #expect(TypedText.quoted("Buy milk") == "“Buy milk”")
        #expect(TypedText.quoted("\u{202E}klim") == "“\u{202E}klim\u{202C}”")
        #expect(TypedText.quoted("\u{2067}a\u{202B}b") == "“\u{2067}a\u{202B}b\u{202C}\u{2069}”")
        #expect(TypedText.quoted("\u{202E}a\u{202C}") == "“\u{202E}a\u{202C}”", "a closed run is left as it is")
        let item = try TodoItem(id: UUID(), title: "\u{202E}klim", created: .now)
        #expect(AppState().stepName(for: [.add(item)]) == "Add “\u{202E}klim\u{202C}”")
    }

    @Test("creating an item with NUL in its title is refused with a message that names the field and the character")
    func createWithNul() async throws {
        await #expect(throws: TodoFailure.invalid(.controlCharacter(field: "the title", scalar: 0))) {
            try await app.send(.create(.init(title: "Milk\u{0}"), at: nil))
        }
        let message = TodoFailure.invalid(.controlCharacter(field: "the title", scalar: 0)).description
        #expect(message.contains("the title") && message.contains("U+0000") && message.contains("tabs and line breaks"))
        #expect(try await store.state().todos.items.isEmpty)
        #expect(await store.history().steps.isEmpty)
    }

    @Test("every text of a new item is checked: details, address fields and direction steps")
    func everyField() async throws {
        let cases: [(TodoItem.Draft, String)] = [
            (.init(title: "a", details: "line one\nline\u{1}two"), "the details"),
            (.init(title: "a", location: .address(.init(street: "Main St", city: "Ber\u{0}lin", zipCode: "", country: ""))), "the city"),
            (.init(title: "a", location: .address(.init(street: "", city: "", zipCode: "1\u{7F}", country: ""))), "the zip code"),
            (.init(title: "a", location: .directions(.init(steps: ["left", "right\u{0}"]))), "step 2 of the directions"),
        ]
        for (draft, field) in cases {
            await #expect(throws: TodoFailure.self) { try await app.send(.create(draft, at: nil)) }
            do {
                try await app.send(.create(draft, at: nil))
            } catch {
                guard case .invalid(.controlCharacter(let named, _)) = error else {
                    Issue.record("\(field): \(error)")
                    continue
                }
                #expect(named == field)
            }
        }
        let fine = try await app.send(.create(.init(title: "tab\tand\nline", details: "a\r\nb"), at: nil))
        #expect(try await store.state().todos.items == [fine])
    }

    @Test("edits, whole-item updates and imports are checked as well; nothing changes when one is refused")
    func editsAndImports() async throws {
        let milk = try await app.send(.create(.init(title: "Milk"), at: nil))
        await #expect(throws: TodoFailure.invalid(.controlCharacter(field: "the title", scalar: 0))) {
            try await app.send(.alter(milk.id, [.title(to: "Mi\u{0}lk")]))
        }
        await #expect(throws: TodoFailure.invalid(.controlCharacter(field: "the details", scalar: 0x1B))) {
            try await app.send(.alter(milk.id, [.complete, .details(to: "\u{1B}[0m")]))
        }
        let nul = try restored(title: "bad\u{0}")
        await #expect(throws: TodoFailure.invalid(.controlCharacter(field: "the title", scalar: 0))) {
            try await app.send(.update(try restored(title: "x\u{0}")))
        }
        await #expect(throws: TodoFailure.invalid(.controlCharacter(field: "the title", scalar: 0))) { try await app.send(.merge([nul])) }
        await #expect(throws: TodoFailure.invalid(.controlCharacter(field: "the title", scalar: 0))) {
            try await app.send(.replaceAll([nul]))
        }
        #expect(try await store.state().todos.items == [milk])
        #expect(await store.history().steps.count == 1)
    }

    @Test("an item saved with a control character before the rule still opens, completes and undoes")
    func savedBeforeTheRule() async throws {
        let old = try restored(title: "old\u{0}title")
        let saved = InMemoryStore(AppState(todos: try TodoList(items: [old])), now: clock.now)
        let app = AppDomain(store: saved, now: clock.now, makeID: ids.makeID)
        try await app.send(.complete([old.id]))
        #expect(try await saved.state().todos.items.map(\.isCompleted) == [true])
        try await app.send(.undo)
        #expect(try await saved.state().todos.items == [old])
        // Renaming it to clean text is how a person mends it.
        try await app.send(.alter(old.id, [.title(to: "old title")]))
        #expect(try await saved.state().todos.items.map(\.title) == ["old title"])
    }

    @Test("a shared list refuses a change with a control character and stays as it was")
    func sharedList() throws {
        var shared = SharedList()
        let milk = try TodoItem(id: Fixtures.id(1), title: "Milk", created: Fixtures.start)
        try shared.perform([.add(milk)], named: "Add", by: "ann", at: Fixtures.start)
        #expect(throws: SharingError.refused(.controlCharacter(field: "the title", scalar: 0))) {
            try shared.perform([.update(milk.id, [.title(to: "M\u{0}")], at: Fixtures.start)], named: "Rename", by: "bob", at: Fixtures.start)
        }
        #expect(shared.list.items == [milk])
        #expect(shared.log.count == 1)
    }

    @Test("a list's name is checked too")
    func listName() throws {
        #expect(throws: SharedListError.self) { try SharedListSummary.checkedName("Groceries\u{0}") }
        #expect(try SharedListSummary.checkedName("  Groceries\tweek 2 ") == "Groceries\tweek 2")
    }
}
