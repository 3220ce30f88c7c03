import Foundation
import Testing
import Todos

/// A search finds the items whose texts contain every word it was given.
@Suite("Searching the list")
struct SearchSpecs {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)

    static func list() throws -> TodoList {
        try TodoList(items: [
            TodoItem(id: Fixtures.id(1), title: "Buy milk", created: now),
            TodoItem(id: Fixtures.id(2), title: "Call the café", details: "Ask about the Milk delivery", created: now),
            TodoItem(
                id: Fixtures.id(3), title: "Post the parcel",
                location: .address(.init(street: "1 Rue de la Paix", city: "Zürich", zipCode: "8001", country: "CH")),
                created: now
            ),
            TodoItem(
                id: Fixtures.id(4), title: "Visit Ann", state: .completed,
                location: .directions(.init(steps: ["Take the tram to Milkwood", "Walk north"])), created: now
            ),
            TodoItem(id: Fixtures.id(5), title: "Water plants", created: now),
        ])
    }

    static func titles(_ text: String, _ filter: TodoFilter = .all, sort: TodoSort = .list) throws -> [String] {
        try list().items(filter, sortedBy: sort, matching: TodoSearch(text), now: now).map(\.title)
    }

    @Test("every word, in the title, the details or the location, in any case")
    func everyWordAnywhere() throws {
        #expect(try Self.titles("milk") == ["Buy milk", "Call the café", "Visit Ann"])
        #expect(try Self.titles("MILK buy") == ["Buy milk"])
        #expect(try Self.titles("zurich") == ["Post the parcel"], "without its accent")
        #expect(try Self.titles("cafe") == ["Call the café"])
        #expect(try Self.titles("8001 paix") == ["Post the parcel"])
        #expect(try Self.titles("milk nothing").isEmpty)
        #expect(try Self.titles("lk") == ["Buy milk", "Call the café", "Visit Ann"], "part of a word")
        #expect(try Self.titles("PLANTS") == ["Water plants"], "at the very end")
        #expect(try Self.titles("water plants and more").isEmpty, "a word longer than what is left")
        #expect(try Self.titles("[") == [], "no pattern: a bracket is a bracket")
    }

    @Test("an accented word finds its letters without the accent, and the other way round")
    func accentsBothWays() throws {
        let list = try TodoList(items: [
            TodoItem(id: Fixtures.id(1), title: "Cafe au lait", created: Self.now),
            TodoItem(id: Fixtures.id(2), title: "CAFÉ NOIR", created: Self.now),
            TodoItem(id: Fixtures.id(3), title: "Straße", created: Self.now),
        ])
        func titles(_ text: String) throws -> [String] {
            try list.items(matching: TodoSearch(text), now: Self.now).map(\.title)
        }
        #expect(try titles("café") == ["Cafe au lait", "CAFÉ NOIR"])
        #expect(try titles("cafe") == ["Cafe au lait", "CAFÉ NOIR"])
        #expect(try titles("noir") == ["CAFÉ NOIR"])
        #expect(try titles("straße") == ["Straße"])
    }

    @Test("with the filter and the order")
    func withFilterAndOrder() throws {
        #expect(try Self.titles("milk", .active) == ["Buy milk", "Call the café"])
        #expect(try Self.titles("milk", .completed) == ["Visit Ann"])
        #expect(try Self.titles("milk", sort: .smart) == ["Buy milk", "Call the café", "Visit Ann"])
    }

    @Test("no words is no search; a text past 200 characters is refused")
    func emptyAndTooLong() throws {
        #expect(try TodoSearch("") == nil)
        #expect(try TodoSearch(" \t\n ") == nil)
        #expect(try TodoSearch("  buy\tmilk ")?.words == ["buy", "milk"])
        #expect(try TodoSearch("  buy\tmilk ")?.text == "buy milk")
        #expect(try Self.list().items(matching: nil, now: Self.now).count == 5)
        #expect(throws: TodoSearchError.tooLong(201)) { try TodoSearch(String(repeating: "a", count: 201)) }
        #expect(try TodoSearch(String(repeating: "a", count: 200)) != nil)
        #expect(TodoSearchError.tooLong(201).description == "a search is at most 200 characters long, not 201")
    }

    @Test("each word counts once; more than 20 different words are refused")
    func wordsOnceAndAtMostTwenty() throws {
        #expect(try TodoSearch("milk MILK Milk mílk bread milk")?.words == ["milk", "bread"])
        #expect(try TodoSearch(Array(repeating: "é", count: 100).joined(separator: " "))?.words == ["é"])
        let twenty = (1...20).map { "w\($0)" }
        #expect(try TodoSearch(twenty.joined(separator: " "))?.words.count == 20)
        #expect(throws: TodoSearchError.tooManyWords(21)) { try TodoSearch((twenty + ["w21", "w1"]).joined(separator: " ")) }
        #expect(TodoSearchError.tooManyWords(21).description == "a search has at most 20 different words, not 21")
    }

    @Test("a control character is refused, a tab or a line break separates words")
    func controlCharacters() throws {
        #expect(try TodoSearch("milk\tbread\r\nbeans")?.words == ["milk", "bread", "beans"])
        #expect(throws: TodoSearchError.controlCharacter(0)) { try TodoSearch("milk\u{0}") }
        #expect(throws: TodoSearchError.controlCharacter(0x1B)) { try TodoSearch("\u{1B}[31m") }
        #expect(TodoSearchError.controlCharacter(0x7F).description
            == "a search holds no control characters but tabs and line breaks, and this one holds U+007F")
    }
}
