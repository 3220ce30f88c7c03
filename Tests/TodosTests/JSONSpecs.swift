import Foundation
import Rewind
import Testing
@testable import Todos

@Suite("JSON format")
struct JSONSpecs {
    static func richState() throws -> AppState {
        let start = Fixtures.start.addingTimeInterval(0.123)
        let items = [
            try TodoItem(id: Fixtures.id(1), title: "Buy milk", created: start),
            try TodoItem(
                id: Fixtures.id(2), title: "Dentist", details: "Bring the card\nsecond line", state: .completed,
                due: .timeSpan(.start(.from(start), .to(start.addingTimeInterval(3600)))),
                location: .address(.init(street: "1 Main St", city: "Springfield", zipCode: "12345", country: "US")),
                created: start, changed: start.addingTimeInterval(5)
            ),
            try TodoItem(id: Fixtures.id(3), title: "Trip", due: .timeSpan(.start(.from(start), .unknown)),
                         location: .coordinate(.init(latitude: 53.92681, longitude: 9.09762)), created: start),
            try TodoItem(id: Fixtures.id(4), title: "Hike", due: .timeSpan(.duration(.from(start), for: 3, .days)),
                         location: .directions(.init(steps: ["leave the station", "turn right"])), created: start),
            try TodoItem(id: Fixtures.id(5), title: "Call", due: .date(start), created: start),
        ]
        return AppState(todos: try TodoList(items: items))
    }

    @Test("a state round-trips exactly, dates to the millisecond")
    func roundTrip() throws {
        let state = try Self.richState()
        #expect(try TodoJSON.decode(AppState.self, from: try TodoJSON.encode(state)) == state)
        #expect(try TodoJSON.decode(AppState.self, from: try TodoJSON.encode(state, pretty: true)) == state)
    }

    @Test("dates are ISO 8601 in UTC with milliseconds; the document has format and version")
    func shape() throws {
        let data = try TodoJSON.encode(try Fixtures.state(["Buy milk"]))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""created":"2026-06-01T10:00:00.000Z""#))
        #expect(text.contains(#""format":"rewind-todos""#))
        #expect(text.contains(#""version":2"#))
        #expect(text.contains(#""due":{"kind":"unknown"}"#))
        #expect(text.contains(#""state":"active""#))
    }

    @Test("changes and history steps round-trip")
    func changes() throws {
        let state = try Self.richState()
        let history = History(state, now: { Fixtures.start.addingTimeInterval(0.0004) })
        try history.perform(.todos(.removeCompleted))
        try history.perform(.update(Fixtures.id(1), [.title(to: "x"), .due(to: .date(Fixtures.start)), .complete], at: Fixtures.start))
        try history.perform(.todos(.completeAll(at: Fixtures.start)))
        try history.perform(.move(Fixtures.id(1), to: 2))
        try history.perform(.setting(.todos(TodoList())))
        try history.undo()
        let steps = try TodoJSON.decode([HistoryStep<AppState.Change>].self, from: try TodoJSON.encode(history.steps))
        #expect(steps.map(\.changes) == history.steps.map(\.changes))
        #expect(steps.map(\.name) == history.steps.map(\.name))
        #expect(steps.first?.date == Fixtures.start)
        let all: [AppState.Change] = [
            .add(try Fixtures.item("a", 9)), .insert(try Fixtures.item("b", 8), at: 0), .remove(Fixtures.id(1)),
            .todos(.removeItems([Fixtures.id(1)])), .todos(.restore([.init(try Fixtures.item("c", 7), at: 1)])),
            .todos(.replace([try Fixtures.item("d", 6)])), .move(Fixtures.id(2), to: 0),
            .todos(.reopenAll(at: Fixtures.start)), .todos(.removeCompleted),
            .update(Fixtures.id(1), [.details(to: "d"), .location(to: .unknown), .reopen], at: Fixtures.start),
        ]
        #expect(try TodoJSON.decode([AppState.Change].self, from: try TodoJSON.encode(all)) == all)
    }

    @Test("changes are written with the words active and completed")
    func currentWords() throws {
        let all: [AppState.Change] = [
            .update(Fixtures.id(1), [.complete, .reopen], at: Fixtures.start),
            .todos(.completeAll(at: Fixtures.start)), .todos(.reopenAll(at: Fixtures.start)), .todos(.removeCompleted),
            .add(try TodoItem(id: Fixtures.id(2), title: "b", state: .completed, created: Fixtures.start)),
        ]
        let text = String(decoding: try TodoJSON.encode(all), as: UTF8.self)
        for op in ["complete", "reopen", "completeAll", "reopenAll", "removeCompleted"] {
            #expect(text.contains(#""op":"\#(op)""#))
        }
        #expect(text.contains(#""state":"completed""#))
        #expect(!text.lowercased().contains("finish"))
    }

    @Test("a version 1 document and changes with the earlier words read as active and completed")
    func earlierWords() throws {
        func item(_ number: Int, _ state: String) -> String {
            #"{"id":"00000000-0000-4000-8000-00000000000\#(number)","title":"t\#(number)","state":"\#(state)","created":"2026-06-01T10:00:00.000Z"}"#
        }
        let document = #"{"format":"rewind-todos","version":1,"items":[\#(item(1, "unfinished")),\#(item(2, "finished"))]}"#
        let state = try TodoJSON.decode(AppState.self, from: Data(document.utf8))
        #expect(state.todos.items.map(\.state) == [.active, .completed])

        let changes = #"""
            [{"op":"update","id":"00000000-0000-4000-8000-000000000001","at":"2026-06-01T10:00:00.000Z",
              "changes":[{"op":"finish"},{"op":"unfinish"}]},
             {"op":"finishAll","at":"2026-06-01T10:00:00.000Z"},{"op":"unfinishAll","at":"2026-06-01T10:00:00.000Z"},
             {"op":"removeFinished"},{"op":"add","item":\#(item(3, "finished"))}]
            """#
        let expected: [AppState.Change] = [
            .update(Fixtures.id(1), [.complete, .reopen], at: Fixtures.start),
            .todos(.completeAll(at: Fixtures.start)), .todos(.reopenAll(at: Fixtures.start)), .todos(.removeCompleted),
            .add(try TodoItem(id: Fixtures.id(3), title: "t3", state: .completed, created: Fixtures.start)),
        ]
        #expect(try TodoJSON.decode([AppState.Change].self, from: Data(changes.utf8)) == expected)
        // A list change alone reads them too.
        #expect(try TodoJSON.decode(TodoList.Change.self, from: Data(#"{"op":"removeFinished"}"#.utf8)) == .removeCompleted)
    }

    @Test("an unknown op is refused with the current names only")
    func unknownOp() throws {
        let error = try #require(throws: TodoJSONError.self) {
            try TodoJSON.decode(TodoItem.Change.self, from: Data(#"{"op":"done"}"#.utf8))
        }
        #expect(error.description.contains("“done” is not one of title, details, due, location, complete, reopen"))
    }

    static func document(_ item: String) -> Data {
        let good = #"{"id":"00000000-0000-4000-8000-000000000001","title":"ok","created":"2026-06-01T10:00:00.000Z"}"#
        return Data(#"{"format":"rewind-todos","version":1,"items":[\#(good),\#(good.replacingOccurrences(of: "0001", with: "0002")),\#(item)]}"#.utf8)
    }

    static let badItems: [(String, String)] = [
        (#"{"id":"00000000-0000-4000-8000-000000000003","title":"x","created":"2026-06-01T10:00:00.000Z","due":{"kind":"span","start":"yesterday","end":null}}"#,
         "items[2].due.start: expected an ISO-8601 date like 2026-12-01T09:30:00.000Z"),
        (#"{"id":"00000000-0000-4000-8000-000000000003","title":"  ","created":"2026-06-01T10:00:00.000Z"}"#,
         "items[2].title: A title must not be empty."),
        (#"{"id":"00000000-0000-4000-8000-000000000003","created":"2026-06-01T10:00:00.000Z"}"#,
         "items[2].title: is missing"),
        (#"{"id":"00000000-0000-4000-8000-000000000003","title":"x","created":12}"#,
         "items[2].created: expected an ISO-8601 date like 2026-12-01T09:30:00.000Z"),
        (#"{"id":"00000000-0000-4000-8000-000000000003","title":"x","created":"2026-06-01T10:00:00.000Z","location":{"kind":"coordinate","latitude":91,"longitude":0}}"#,
         "items[2].location.latitude: A latitude must lie between -90 and 90; 91.0 does not."),
        (#"{"id":"00000000-0000-4000-8000-000000000003","title":"x","created":"2026-06-01T10:00:00.000Z","due":{"kind":"someday"}}"#,
         "items[2].due.kind: “someday” is not one of unknown, date, span, duration"),
        (#"{"id":"00000000-0000-4000-8000-000000000003","title":"x","created":"2026-06-01T10:00:00.000Z","state":"done"}"#,
         "items[2].state: “done” is not one of active, completed"),
        (#"{"id":"00000000-0000-4000-8000-000000000001","title":"x","created":"2026-06-01T10:00:00.000Z"}"#,
         "items[2].id: the id 00000000-0000-4000-8000-000000000001 is in the document twice (item 0 has it too); each item's id must be unique"),
        (#"{"id":"not-an-id","title":"x","created":"2026-06-01T10:00:00.000Z"}"#,
         "items[2].id: expected an id, a UUID such as 0B7E4C1A-0000-4000-8000-000000000000"),
        (#"{"id":"00000000-0000-4000-8000-000000000003","title":"x","created":"2026-06-01T10:00:00.000Z","due":{"kind":"duration","start":"2026-06-01T10:00:00Z","amount":1.5,"unit":"days"}}"#,
         "items[2].due.amount: expected a whole number, found 1.5"),
        (#"{"id":"00000000-0000-4000-8000-000000000003","title":"x","created":"2026-06-01T10:00:00.000Z","due":{"kind":"duration","start":"2026-06-01T10:00:00Z","amount":0,"unit":"days"}}"#,
         "items[2].due.amount: A duration must be positive; 0 is not."),
        (#"{"id":"00000000-0000-4000-8000-000000000003","title":"x","created":"2026-06-01T10:00:00.000Z","completed":true}"#,
         "items[2].completed: unknown field; the allowed fields are id, title, details, state, due, location, created, changed"),
        (#"{"id":"00000000-0000-4000-8000-000000000003","title":"x","created":"2026-06-01T10:00:00.000Z","due":{"kind":"date","date":"2026-06-01T10:00:00Z","end":"2026-06-02T10:00:00Z"}}"#,
         "items[2].due.end: unknown field; the allowed fields are kind, date"),
        (#"{"id":"00000000-0000-4000-8000-000000000003","title":"x","created":"2026-06-01T10:00:00.000Z","location":{"kind":"coordinate","latitude":1,"longitude":2,"street":"1 Main St"}}"#,
         "items[2].location.street: unknown field; the allowed fields are kind, latitude, longitude"),
        (#"{"id":"00000000-0000-4000-8000-000000000003","title":"x","created":"2026-06-01T10:00:00.000Z","location":{"kind":"unknown","city":"Springfield"}}"#,
         "items[2].location.city: unknown field; the allowed fields are kind"),
    ]

    @Test("a field the format does not have is read without it in a store's own document only")
    func unknownFields() throws {
        let text = #"{"format":"rewind-todos","version":2,"owner":"ann","items":[{"id":"00000000-0000-4000-8000-000000000001","title":"ok","created":"2026-06-01T10:00:00.000Z","state":"completed","priority":3,"due":{"kind":"span","start":"2026-06-01T10:00:00Z","end":null,"note":"x"},"location":{"kind":"directions","steps":["left"],"map":"m"}}]}"#
        do {
            _ = try TodoJSON.decode(AppState.self, from: Data(text.utf8))
            Issue.record("a document with fields the format does not have was read")
        } catch {
            #expect(error.description == "owner: unknown field; the allowed fields are format, version, items")
        }
        let state = try TodoJSON.decode(AppState.self, from: Data(text.utf8), reading: .store)
        let item = try #require(state.todos.items.first)
        #expect(item.state == .completed)
        #expect(item.location == .directions(.init(steps: ["left"])))
        // A store's own document is what the encoder wrote: every field it
        // writes is one the decoder reads, in an input document too.
        let written = try TodoJSON.encode(try Self.richState())
        #expect(try TodoJSON.decode(AppState.self, from: written, reading: .input) == (try Self.richState()))
    }

    @Test("a malformed document is refused with the path of the bad field", arguments: badItems)
    func errors(item: String, message: String) {
        #expect(throws: TodoJSONError.self) { try TodoJSON.decode(AppState.self, from: Self.document(item)) }
        do {
            _ = try TodoJSON.decode(AppState.self, from: Self.document(item))
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("a foreign, newer or broken document is refused")
    func documents() {
        func message(_ text: String) -> String {
            do {
                _ = try TodoJSON.decode(AppState.self, from: Data(text.utf8))
                return "decoded"
            } catch {
                return error.description
            }
        }
        #expect(message(#"{"format":"other","version":1,"items":[]}"#) == "format: expected “rewind-todos”, found “other”")
        #expect(message(#"{"format":"rewind-todos","version":3,"items":[]}"#).hasPrefix("version: version 3 is not supported"))
        #expect(message(#"{"format":"rewind-todos","version":1,"items":{}}"#).hasPrefix("items: expected"))
        #expect(message("{not json").hasPrefix("not valid JSON"))
        // Where the parser stopped, not only that it did (in the words of the platform's Foundation).
        #expect(message(#"{"format":"rewind-todos","#).lowercased().contains("end of"))
        let early = message(#"{"format":"rewind-todos","items":[}"#)
        #expect(early.contains("character 34") || early.contains("column 35"), "\(early)")
        // Valid JSON whose number its field cannot hold is said so, not as "not valid JSON".
        #expect(message(#"{"format":"rewind-todos","version":2.5,"items":[]}"#) == "version: expected a whole number, found 2.5")
        #expect(message(#"{"format":"rewind-todos","version":99999999999999999999,"items":[]}"#).hasPrefix("version: expected a whole number"))
        #expect(message(#"{"format":"rewind-todos","version":1,"items":[]}"#) == "decoded")
    }

    @Test("ISO 8601 dates: offsets, fractions and bad calendar days")
    func dates() {
        #expect(ISO8601Milliseconds.date(from: "2026-06-01T12:00:00+02:00") == Fixtures.start)
        #expect(ISO8601Milliseconds.date(from: "2026-06-01T10:00:00.1234Z") == Fixtures.start.addingTimeInterval(0.123).roundedToMilliseconds)
        #expect(ISO8601Milliseconds.date(from: "2026-02-30T10:00:00Z") == nil)
        #expect(ISO8601Milliseconds.date(from: "2026-06-01T10:00:00") == nil)
        #expect(ISO8601Milliseconds.string(from: Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
        for ms in stride(from: Int64(-10_000_000_000), to: 10_000_000_000_000, by: 987_654_321_987) {
            let date = Date(timeIntervalSince1970: Double(ms) / 1000)
            #expect(ISO8601Milliseconds.date(from: ISO8601Milliseconds.string(from: date)) == date)
        }
    }

    @Test("ISO 8601 dates are written with the fields of Foundation's calendar, years 1600 to 9999 and beyond")
    func datesAreWrittenWithTheFieldsOfFoundationsCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        func padded(_ value: Int?, _ width: Int) -> String {
            let digits = String(value ?? -1)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        // From 1600 (after the calendar's Julian years) to 9999-12-31 in
        // uneven steps, so that every digit of every field takes many values.
        let first: Int64 = -11_676_096_000_000
        let last: Int64 = 253_402_300_799_999
        var count = 0
        for ms in stride(from: first, through: last, by: 1_618_033_988_749) {
            let date = Date(timeIntervalSince1970: Double(ms) / 1000)
            let fields = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let millis = Int((ms % 1000 + 1000) % 1000)
            let expected = "\(padded(fields.year, 4))-\(padded(fields.month, 2))-\(padded(fields.day, 2))T"
                + "\(padded(fields.hour, 2)):\(padded(fields.minute, 2)):\(padded(fields.second, 2)).\(padded(millis, 3))Z"
            #expect(ISO8601Milliseconds.string(from: date) == expected, "\(ms) ms")
            count += 1
        }
        #expect(count > 100)
        #expect(ISO8601Milliseconds.string(from: Date(timeIntervalSince1970: Double(last) / 1000)) == "9999-12-31T23:59:59.999Z")
        #expect(ISO8601Milliseconds.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        // Outside 0000–9999 a sign or a fifth digit, read back as written.
        let far = Date(timeIntervalSince1970: 253_402_300_800)
        #expect(ISO8601Milliseconds.string(from: far) == "10000-01-01T00:00:00.000Z")
        #expect(ISO8601Milliseconds.date(from: ISO8601Milliseconds.string(from: far)) == far)
        let early = Date(timeIntervalSince1970: -62_167_219_200.001)
        #expect(ISO8601Milliseconds.string(from: early) == "-0001-12-31T23:59:59.999Z")
    }
}
