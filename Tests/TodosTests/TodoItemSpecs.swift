import Foundation
import Testing
@testable import Todos

@Suite("TodoItem")
struct TodoItemSpecs {
    static let later = Fixtures.start.addingTimeInterval(90)

    @Suite("just created")
    struct JustCreated {
        let item: TodoItem
        init() throws { item = try TodoItem(id: Fixtures.id(1), title: "  Get Coffee \n", created: Fixtures.start) }

        @Test("has provided title, trimmed") func title() { #expect(item.title == "Get Coffee") }
        @Test("has empty details") func details() { #expect(item.details == "") }
        @Test("has unknown due date") func due() { #expect(item.due == .unknown) }
        @Test("is active") func state() { #expect(item.state == .active) }
        @Test("has no location") func location() { #expect(item.location == .unknown) }
        @Test("was changed when created") func changed() { #expect(item.changed == item.created) }
        @Test("has the injected id and date") func identity() {
            #expect(item.id == Fixtures.id(1))
            #expect(item.created == Fixtures.start)
        }
    }

    /// One context per change: the changed field holds the provided value,
    /// `changed` moved to the change's date, every other field is the same.
    struct ChangeCase: CustomTestStringConvertible, Sendable {
        let name: String
        let change: TodoItem.Change
        let field: Field

        var testDescription: String { name }

        /// The value the change provides for its field.
        var expected: AnyHashable {
            switch change {
            case .title(let title): title
            case .details(let details): details
            case .due(let due): due
            case .location(let location): location
            case .complete: TodoItem.State.completed
            case .reopen: TodoItem.State.active
            // Of an active item, as every case's is.
            case .toggle: TodoItem.State.completed
            }
        }
    }

    static let cases: [ChangeCase] = [
        ChangeCase(name: "change title", change: .title(to: "Get Coffee — ASAP"), field: .title),
        ChangeCase(name: "change details", change: .details(to: "Two bags"), field: .details),
        ChangeCase(
            name: "change due", change: .due(to: .timeSpan(.duration(.from(Fixtures.start), for: 3, .days))), field: .due
        ),
        ChangeCase(name: "change location", change: .location(to: .directions(.init(steps: ["left", "right"]))), field: .location),
        ChangeCase(name: "complete", change: .complete, field: .state),
        ChangeCase(name: "toggle", change: .toggle, field: .state),
    ]

    @Suite("change of one field")
    struct ChangeOfOneField {
        @Test("has the provided value", arguments: TodoItemSpecs.cases)
        func providedValue(_ c: ChangeCase) throws {
            let altered = try Fixtures.fullItem().alter(c.change, at: later)
            #expect(c.field.value(of: altered) == c.expected)
            #expect(c.field.value(of: altered) != c.field.value(of: try Fixtures.fullItem()))
        }

        @Test("moves the changed date", arguments: TodoItemSpecs.cases)
        func changedDate(_ c: ChangeCase) throws {
            #expect(try Fixtures.fullItem().alter(c.change, at: later).changed == later)
        }

        @Test("keeps every other field", arguments: TodoItemSpecs.cases)
        func otherFields(_ c: ChangeCase) throws {
            let item = try Fixtures.fullItem()
            let altered = try item.alter(c.change, at: later)
            for field in Field.others(than: c.field) {
                #expect(field.value(of: altered) == field.value(of: item), "\(field) changed")
            }
        }
    }

    @Suite("change title")
    struct ChangeTitle {
        let t0: TodoItem
        let t1: TodoItem
        init() throws {
            t0 = try Fixtures.fullItem()
            t1 = try t0.alter(.title(to: "Get Coffee — ASAP"), at: later)
        }

        @Test("has same id") func id() { #expect(t1.id == t0.id) }
        @Test("has different title") func different() { #expect(t1.title != t0.title) }
        @Test("has provided title") func provided() { #expect(t1.title == "Get Coffee — ASAP") }
        @Test("has unchanged details") func details() { #expect(t1.details == t0.details) }
        @Test("has same due date") func due() { #expect(t1.due == t0.due) }
        @Test("has same state") func state() { #expect(t1.state == t0.state) }
        @Test("has same location") func location() { #expect(t1.location == t0.location) }
    }

    @Suite("reopen")
    struct Reopen {
        @Test("is active and keeps the rest") func reopen() throws {
            let completed = try Fixtures.fullItem().alter(.complete, at: later)
            let reopened = try completed.alter(.reopen, at: later.addingTimeInterval(1))
            #expect(reopened.state == .active)
            for field in Field.others(than: .state) { #expect(field.value(of: reopened) == field.value(of: completed)) }
        }
    }

    @Suite("validation")
    struct Validation {
        @Test("an empty title is refused") func emptyTitle() {
            #expect(throws: TodoError.emptyTitle) { try TodoItem(id: Fixtures.id(1), title: "  \n ", created: Fixtures.start) }
        }

        @Test("a title of 501 characters is refused, 500 are fine") func longTitle() throws {
            #expect(throws: TodoError.titleTooLong(length: 501, limit: 500)) {
                try TodoItem(id: Fixtures.id(1), title: String(repeating: "x", count: 501), created: Fixtures.start)
            }
            _ = try TodoItem(id: Fixtures.id(1), title: String(repeating: "x", count: 500), created: Fixtures.start)
        }

        @Test("coordinates must lie on Earth") func coordinates() throws {
            let item = try Fixtures.fullItem()
            #expect(throws: TodoError.latitudeOutOfRange(90.5)) {
                try item.alter(.location(to: .coordinate(.init(latitude: 90.5, longitude: 0))), at: later)
            }
            #expect(throws: TodoError.longitudeOutOfRange(-181)) {
                try item.alter(.location(to: .coordinate(.init(latitude: 0, longitude: -181))), at: later)
            }
            _ = try item.alter(.location(to: .coordinate(.init(latitude: -90, longitude: 180))), at: later)
        }

        @Test("a span ends after it starts; a duration is positive") func spans() throws {
            let item = try Fixtures.fullItem()
            let start = Fixtures.start
            #expect(throws: TodoError.spanEndsBeforeStart(start: start, end: start)) {
                try item.alter(.due(to: .timeSpan(.start(.from(start), .to(start)))), at: later)
            }
            #expect(throws: TodoError.durationNotPositive(0)) {
                try item.alter(.due(to: .timeSpan(.duration(.from(start), for: 0, .hours))), at: later)
            }
        }

        @Test("empty addresses and directions are refused") func emptyLocations() throws {
            let item = try Fixtures.fullItem()
            #expect(throws: TodoError.emptyAddress) {
                try item.alter(.location(to: .address(.init(street: " ", city: "", zipCode: "", country: ""))), at: later)
            }
            #expect(throws: TodoError.noDirections) { try item.alter(.location(to: .directions(.init(steps: []))), at: later) }
            #expect(throws: TodoError.emptyDirectionStep(at: 1)) {
                try item.alter(.location(to: .directions(.init(steps: ["go", " "]))), at: later)
            }
        }

        @Test("errors say what is allowed") func messages() {
            #expect(TodoError.titleTooLong(length: 501, limit: 500).description.contains("at most 500"))
            #expect(TodoError.latitudeOutOfRange(91).description.contains("-90 and 90"))
        }

        @Test("a refused alteration changes nothing, even after valid changes before it") func atomic() throws {
            let item = try Fixtures.fullItem()
            #expect(throws: TodoError.emptyTitle) { try item.alter(.details(to: "new"), .title(to: ""), at: later) }
            var copy = item
            #expect(throws: TodoError.emptyTitle) { _ = try copy.apply([.details(to: "new"), .title(to: "")], at: later) }
            #expect(copy == item)
        }
    }
}
