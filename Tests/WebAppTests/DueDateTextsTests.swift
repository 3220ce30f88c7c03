import Foundation
import Testing
import Todos

@testable import WebApp

/// The due-date texts of the to-do page are formatted once a day and are
/// always what the domain's formatter writes for that day and time zone.
@Suite("Due-date texts of the page")
struct DueDateTextsTests {
    /// 08:00 UTC on 15 January 2027.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let utc = TimeZone(identifier: "UTC") ?? .gmt
    static let day: TimeInterval = 86_400

    static func items(_ dues: [TodoDate]) throws -> [TodoItem] {
        try dues.enumerated().map { index, due in
            try TodoItem(id: UUID(), title: "Item \(index)", due: due, created: now)
        }
    }

    /// Tomorrow 14:30, a week later, and no due date.
    static func dues(_ now: Date) -> [TodoDate] {
        [.date(now.addingTimeInterval(day + 6.5 * 3600)), .date(now.addingTimeInterval(8 * day)), .unknown]
    }

    @Test func textsAreTheFormattersOwn() throws {
        let items = try Self.items(Self.dues(Self.now))
        let formatter = DueDateFormatter(now: Self.now, timeZone: Self.utc)
        let texts = DueDateTexts().texts(for: items, formatter: formatter)
        #expect(texts.count == 2)
        for item in items where item.due != .unknown {
            #expect(texts[item.due]?.display == formatter.display(item.due))
            #expect(texts[item.due]?.datetime == TodoListView.isoDate(item.due.start))
        }
        #expect(texts[items[0].due]?.display == "tomorrow 14:30")
    }

    @Test func aDateIsKeptForTheDayAndSharedByLaterPages() throws {
        let cache = DueDateTexts()
        let first = try Self.items(Self.dues(Self.now))
        _ = cache.texts(for: first, formatter: DueDateFormatter(now: Self.now, timeZone: Self.utc))
        #expect(cache.count == 2)
        // Later the same day, one new date: the two kept ones are not formatted again.
        let later = Self.now.addingTimeInterval(3600)
        let second = try Self.items(Self.dues(Self.now) + [.date(Self.now.addingTimeInterval(30 * Self.day))])
        let texts = cache.texts(for: second, formatter: DueDateFormatter(now: later, timeZone: Self.utc))
        #expect(cache.count == 3)
        #expect(texts.count == 3)
    }

    @Test func theTextsFollowTheDayWhenItChanges() throws {
        let cache = DueDateTexts()
        let items = try Self.items(Self.dues(Self.now))
        let today = cache.texts(for: items, formatter: DueDateFormatter(now: Self.now, timeZone: Self.utc))
        #expect(today[items[0].due]?.display == "tomorrow 14:30")
        let nextDay = Self.now.addingTimeInterval(Self.day)
        let tomorrow = cache.texts(for: items, formatter: DueDateFormatter(now: nextDay, timeZone: Self.utc))
        #expect(tomorrow[items[0].due]?.display == "today 14:30")
        #expect(cache.count == 2)
    }

    @Test func theTextsFollowTheTimeZoneWhenItChanges() throws {
        let cache = DueDateTexts()
        let items = try Self.items(Self.dues(Self.now))
        _ = cache.texts(for: items, formatter: DueDateFormatter(now: Self.now, timeZone: Self.utc))
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let formatter = DueDateFormatter(now: Self.now, timeZone: tokyo)
        let texts = cache.texts(for: items, formatter: formatter)
        // 14:30 UTC tomorrow is 23:30 tomorrow in Tokyo.
        #expect(texts[items[0].due]?.display == "tomorrow 23:30")
        #expect(texts[items[0].due]?.display == formatter.display(items[0].due))
        // Each zone keeps its own: pages written in turns for two browsers
        // far apart format nothing again.
        #expect(cache.count == 4)
        let again = cache.texts(for: items, formatter: DueDateFormatter(now: Self.now, timeZone: Self.utc))
        #expect(again[items[0].due]?.display == "tomorrow 14:30")
        #expect(cache.count == 4)
    }

    @Test func noMoreThanTheCapacityIsKeptButEveryDateOfAPageIsAnswered() throws {
        let cache = DueDateTexts(capacity: 3)
        let dues = (1...5).map { TodoDate.date(Self.now.addingTimeInterval(Double($0) * Self.day)) }
        let formatter = DueDateFormatter(now: Self.now, timeZone: Self.utc)
        _ = cache.texts(for: try Self.items(Array(dues.prefix(2))), formatter: formatter)
        #expect(cache.count == 2)
        let texts = cache.texts(for: try Self.items(dues), formatter: formatter)
        #expect(texts.count == 5)
        #expect(texts == DueDateTexts().texts(for: try Self.items(dues), formatter: formatter))
        #expect(cache.count == 0)
        _ = cache.texts(for: try Self.items(Array(dues.prefix(1))), formatter: formatter)
        #expect(cache.count == 1)
    }
}
