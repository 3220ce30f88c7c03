import Foundation
import Testing

@testable import Todos

/// The history log's text of every step and of a shared list's patch is written by hand
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

    /// Checks that `changes` are written as the encoder writes them, and
    /// read back as they were: by the store's reader when `direct` (every
    /// item and location but one at a coordinate), else by the decoder.
    static func expectSame(
        _ changes: [AppState.Change], direct: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let written = try TodoJSON.stepText(changes)
        #expect(written == (try encoded(changes)), sourceLocation: sourceLocation)
        #expect(try TodoJSON.makeDecoder(reading: .store).decode([AppState.Change].self, from: Data(written.utf8)) == changes,
                sourceLocation: sourceLocation)
        #expect(try TodoJSON.storedChanges(written, orDecoding: TodoJSON.makeDecoder(reading: .store)) == changes,
                sourceLocation: sourceLocation)
        let read = StoredJSONReader.read(written) { $0.array { $0.appChange() } }
        #expect(read == (direct ? changes : nil), sourceLocation: sourceLocation)
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
                    var direct = true
                    if case .coordinate = location { direct = false }
                    try Self.expectSame([.todos(.add(item))], direct: direct)
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
        for (index, patch) in entries.enumerated() {
            let written = try TodoJSON.patchText(patch)
            #expect(written == (try encoded(patch)))
            #expect(try TodoJSON.makeDecoder(reading: .store).decode([StepPatch.Entry].self, from: Data(written.utf8)) == patch)
            #expect(try TodoJSON.storedPatch(written, orDecoding: TodoJSON.makeDecoder(reading: .store)) == patch)
            // The last patch holds the item at a coordinate: the decoder's to read.
            #expect(StoredJSONReader.read(written) { $0.array { $0.patchEntry() } } == (index < entries.count - 1 ? patch : nil))
        }
        let changes: [[TodoList.Change]] = [
            [.add(milk)], [.remove(done.id)], [.add(there)], [.add(milk), .update(done.id, [.reopen], at: Self.date)],
        ]
        for step in changes {
            #expect(try TodoJSON.stepText(step) == (try encoded(step)))
            #expect(try TodoJSON.storedListChanges(try TodoJSON.stepText(step), orDecoding: TodoJSON.makeDecoder(reading: .store)) == step)
        }
        // A shared list's changes hold no change of the whole app state.
        let setting = try TodoJSON.stepText([.setting(.todos(try TodoList(items: [milk])))])
        #expect(StoredJSONReader.read(setting) { $0.array { $0.listChange() } } == nil)
        #expect(throws: DecodingError.self) {
            try TodoJSON.storedListChanges(setting, orDecoding: TodoJSON.makeDecoder(reading: .store))
        }
    }

    @Test("every kind of change, alone and after another, with items of every kind")
    func everyChange() throws {
        let later = Self.date.addingTimeInterval(86_400.5)
        let milk = try Self.item("Milk \"oat\" / 2", details: "two\nlines\u{1}")
        let done = try Self.item("Bread", state: .completed, due: .timeSpan(.duration(.from(Self.date), for: 2, .days)),
                                 location: .directions(.init(steps: ["left", "ü/\\"])))
        let street = try Self.item("Post", due: .timeSpan(.start(.from(Self.date), .to(later))),
                                   location: .address(.init(street: "1 Main St", city: "Springfield", zipCode: "", country: "US")))
        let there = try Self.item("Map", location: .coordinate(.init(latitude: 53.92681, longitude: -9.1e-7)))
        let itemChanges: [TodoItem.Change] = [
            .title(to: "Oat/milk \u{7f}"), .details(to: ""), .due(to: .unknown), .due(to: .date(later)),
            .due(to: .timeSpan(.start(.from(Self.date), .unknown))), .location(to: .unknown),
            .location(to: .directions(.init(steps: ["a", "b\tc"]))), .location(to: street.location), .complete, .reopen, .toggle,
        ]
        var changes: [AppState.Change] = [
            .todos(.insert(milk, at: 3)), .todos(.insert(done, at: 0)), .todos(.removeItems([])),
            .todos(.removeItems([milk.id, done.id, street.id])), .todos(.restore([])),
            .todos(.restore([.init(milk, at: 0), .init(done, at: 7), .init(street, at: 1)])),
            .todos(.update(milk.id, [], at: Self.date)), .todos(.update(milk.id, itemChanges, at: later)),
            .todos(.replace([])), .todos(.replace([milk, done, street])), .todos(.move(milk.id, to: 0)),
            .todos(.move(done.id, to: 12_345)), .todos(.completeAll(at: Self.date)), .todos(.reopenAll(at: later)),
            .todos(.removeCompleted), .setting(.todos(TodoList())), .setting(.todos(try TodoList(items: [milk, done, street]))),
        ]
        changes += itemChanges.map { .todos(.update(done.id, [$0], at: Self.date)) }
        for change in changes {
            try Self.expectSame([change])
            try Self.expectSame([.todos(.remove(milk.id)), change])
        }
        try Self.expectSame(changes)
        // What only the encoder writes: an item or a location at a coordinate, wherever it stands.
        let atCoordinate: [AppState.Change] = [
            .todos(.add(there)), .todos(.insert(there, at: 1)), .todos(.restore([.init(milk, at: 0), .init(there, at: 1)])),
            .todos(.replace([milk, there])), .todos(.update(milk.id, [.complete, .location(to: there.location)], at: Self.date)),
            .setting(.todos(try TodoList(items: [milk, there]))),
        ]
        for change in atCoordinate {
            try Self.expectSame([change], direct: false)
            try Self.expectSame([.todos(.completeAll(at: Self.date)), change, .todos(.remove(milk.id))], direct: false)
        }
    }

    @Test("text in any other shape is read, or refused, as the decoder reads or refuses it")
    func otherShapes() throws {
        let milk = try Self.item("Milk")
        let id = milk.id.uuidString
        let item = String(decoding: try TodoJSON.makeEncoder().encode(milk), as: UTF8.self)
        let date = #""2027-01-15T09:30:00.250Z""#
        let texts = [
            String(decoding: try TodoJSON.makeEncoder(pretty: true).encode([AppState.Change.todos(.add(milk))]), as: UTF8.self),
            "[{\"at\":\(date),\"op\":\"finishAll\"}]",
            "[{\"op\":\"completeAll\",\"at\":\(date)}]",
            "[{\"id\":\"\(id.lowercased())\",\"op\":\"remove\"}]",
            "[{\"id\":\"\(id.dropLast())\",\"op\":\"remove\"}]",
            "[{\"id\":\"\(id)\",\"op\":\"move\",\"to\":1.5}]",
            "[{\"id\":\"\(id)\",\"op\":\"move\",\"to\":01}]",
            "[{\"id\":\"\(id)\",\"op\":\"move\",\"to\":-3}]",
            "[{\"id\":\"\(id)\",\"op\":\"move\",\"to\":99999999999999999999}]",
            "[{\"item\":\(item.replacingOccurrences(of: "\"Milk\"", with: "\"   \"")),\"op\":\"add\"}]",
            "[{\"item\":\(item.replacingOccurrences(of: "\"Milk\"", with: "\"\\ud83e\\udd5b \\u00fc\\/\"")),\"op\":\"add\"}]",
            "[{\"item\":\(item.replacingOccurrences(of: "\"Milk\"", with: "\"\\ud800 lone\"")),\"op\":\"add\"}]",
            "[{\"item\":\(item.replacingOccurrences(of: "\"active\"", with: "\"unfinished\"")),\"op\":\"add\"}]",
            "[{\"item\":\(item.replacingOccurrences(of: "\"active\"", with: "\"paused\"")),\"op\":\"add\"}]",
            "[{\"at\":\(date),\"changes\":[{\"op\":\"due\",\"to\":{\"end\":\(date),\"kind\":\"span\",\"start\":\(date)}}],\"id\":\"\(id)\",\"op\":\"update\"}]",
            "[{\"at\":\(date),\"changes\":[{\"op\":\"finish\"}],\"id\":\"\(id)\",\"op\":\"update\"}]",
            "[{\"at\":\(date),\"changes\":[{\"op\":\"location\",\"to\":{\"kind\":\"directions\",\"steps\":[]}}],\"id\":\"\(id)\",\"op\":\"update\"}]",
            "[{\"op\":\"removeCompleted\"}] ",
            "[{\"op\":\"removeCompleted\"}",
            "[]",
            "",
        ]
        for text in texts {
            let decoder = TodoJSON.makeDecoder(reading: .store)
            let expected = Result { try decoder.decode([AppState.Change].self, from: Data(text.utf8)) }
            let read = Result { try TodoJSON.storedChanges(text, orDecoding: decoder) }
            switch (expected, read) {
            case (.success(let expected), .success(let read)): #expect(read == expected, "\(text)")
            case (.failure(let expected), .failure(let read)): #expect("\(read)" == "\(expected)", "\(text)")
            default: Issue.record("\(text): the decoder gave \(expected), the store's reading \(read)")
            }
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
