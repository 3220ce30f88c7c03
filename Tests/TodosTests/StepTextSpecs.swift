import Foundation
import Testing

@testable import Todos

/// The history log's text of an add step and its inverse is written by hand
/// for speed: it must be byte for byte what the format's encoder writes.
@Suite("Step text: the hand-written JSON equals the encoder's")
struct StepTextSpecs {
    static let date = Date(timeIntervalSince1970: 1_800_000_000.123)

    /// What the encoder writes for `changes`.
    static func encoded(_ changes: [AppState.Change]) throws -> String {
        String(decoding: try TodoJSON.makeEncoder().encode(changes), as: UTF8.self)
    }

    static func item(
        _ title: String, details: String = "", state: TodoItem.State = .active, due: TodoDate = .unknown,
        location: Location = .unknown
    ) throws -> TodoItem {
        // As a store restores it: any text, control characters included.
        try TodoItem(
            restoring: UUID(), title: title, details: details, state: state, due: due, location: location,
            created: date, changed: date.addingTimeInterval(0.5))
    }

    static func expectSame(_ changes: [AppState.Change], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let written = try TodoJSON.stepText(changes)
        #expect(written == (try encoded(changes)), sourceLocation: sourceLocation)
        #expect(try TodoJSON.makeDecoder(reading: .store).decode([AppState.Change].self, from: Data(written.utf8)) == changes,
                sourceLocation: sourceLocation)
    }

    @Test("every character up to U+2FFF and beyond, in titles and details")
    func everyCharacter() throws {
        var scalars = (1..<0x3000).compactMap(Unicode.Scalar.init)
        scalars += ["\u{FEFF}", "\u{FFFD}", "\u{1F95B}", "\u{1F468}\u{200D}\u{1F469}", "\u{10FFFF}"].flatMap(\.unicodeScalars)
        for start in stride(from: 0, to: scalars.count, by: 61) {
            var text = "x"
            text.unicodeScalars.append(contentsOf: scalars[start..<min(start + 61, scalars.count)])
            text += "x"
            let item = try Self.item(text, details: text + "\n" + text)
            try Self.expectSame([.todos(.add(item))])
        }
        try Self.expectSame([.todos(.add(Self.item("nul \u{0} and combining e\u{301} / \\ \" end")))])
    }

    @Test("every kind of due date and location, every state, and the inverse")
    func everyKind() throws {
        let later = Self.date.addingTimeInterval(3600.25)
        let dues: [TodoDate] = [
            .unknown, .date(Self.date), .timeSpan(.start(.from(Self.date), .unknown)),
            .timeSpan(.start(.from(Self.date), .to(later))),
        ] + TodoDate.TimeSpan.Unit.allCases.map { .timeSpan(.duration(.from(Self.date), for: 3, $0)) }
        let locations: [Location] = [
            .unknown,
            .address(.init(street: "1 Main St", city: "Springfield", zipCode: "", country: "US/CA")),
            .directions(.init(steps: ["left \"here\"", "right\\there", "ü"])),
            .coordinate(.init(latitude: 53.92681, longitude: -9.1e-7)),
            .coordinate(.init(latitude: 90, longitude: 180)),
        ]
        for due in dues {
            for location in locations {
                for state in TodoItem.State.allCases {
                    let item = try Self.item("Milk", details: "two\r\nlines\ttab", state: state, due: due, location: location)
                    try Self.expectSame([.todos(.add(item))])
                    try Self.expectSame([.todos(.remove(item.id))])
                }
            }
        }
    }

    @Test("a shared list's changes and patch: every kind of entry, the encoder's bytes")
    func sharedRows() throws {
        let encoder = TodoJSON.makeEncoder()
        func encoded<Value: Encodable>(_ value: Value) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
        let milk = try Self.item("Milk \"oat\" / 2", details: "two\nlines")
        let done = try Self.item("Bread", state: .completed, due: .date(Self.date), location: .directions(.init(steps: ["left"])))
        let there = try Self.item("Map", location: .coordinate(.init(latitude: 53.92681, longitude: 9.09762)))
        let entries: [[StepPatch.Entry]] = [
            [],
            [.init(id: milk.id, before: nil, after: PlacedItem(milk, after: nil), moved: false)],
            [.init(id: milk.id, before: nil, after: PlacedItem(milk, after: done.id), moved: false)],
            [.init(id: done.id, before: PlacedItem(done, after: milk.id), after: nil, moved: false),
             .init(id: milk.id, before: PlacedItem(milk, after: nil), after: PlacedItem(done, after: there.id), moved: true)],
            [.init(id: milk.id, before: PlacedItem(milk, after: nil), after: PlacedItem(milk, after: nil), moved: false),
             .init(id: there.id, before: nil, after: PlacedItem(there, after: milk.id), moved: false)],
        ]
        for patch in entries {
            let written = try TodoJSON.patchText(patch)
            #expect(written == (try encoded(patch)))
            #expect(try TodoJSON.makeDecoder(reading: .store).decode([StepPatch.Entry].self, from: Data(written.utf8)) == patch)
        }
        let changes: [[TodoList.Change]] = [
            [.add(milk)], [.remove(done.id)], [.add(there)], [.add(milk), .update(done.id, [.reopen], at: Self.date)],
        ]
        for step in changes {
            #expect(try TodoJSON.stepText(step) == (try encoded(step)))
        }
    }

    @Test("several changes, and any other change through the encoder")
    func mixed() throws {
        let milk = try Self.item("Milk")
        let bread = try Self.item("Bread")
        try Self.expectSame([])
        try Self.expectSame([.todos(.add(milk)), .todos(.remove(bread.id)), .todos(.add(bread))])
        try Self.expectSame([.todos(.add(milk)), .todos(.update(milk.id, [.complete, .title(to: "Oat/milk")], at: Self.date))])
        try Self.expectSame([.todos(.removeItems([milk.id, bread.id])), .todos(.move(milk.id, to: 1))])
        try Self.expectSame([.setting(.todos(TodoList(items: [milk, bread])))])
    }
}
