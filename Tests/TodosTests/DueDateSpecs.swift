import Foundation
import Testing
@testable import Todos

@Suite("Due dates typed by people")
struct DueDateSpecs {
    /// Monday 2026-06-01 10:00 in Berlin (UTC+2).
    static let zone = TimeZone(identifier: "Europe/Berlin") ?? .gmt
    static let now = Fixtures.start
    static let parser = DueDateParser(now: now, timeZone: zone)

    static func day(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ min: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: y, month: m, day: d, hour: h, minute: min)) ?? .distantPast
    }

    static func wholeDay(_ y: Int, _ m: Int, _ d: Int, days: Int = 1) -> TodoDate {
        .timeSpan(.duration(.from(day(y, m, d)), for: days, .days))
    }

    static let cases: [(String, TodoDate)] = [
        ("today", wholeDay(2026, 6, 1)),
        ("Tomorrow", wholeDay(2026, 6, 2)),
        ("fri", wholeDay(2026, 6, 5)),
        ("friday", wholeDay(2026, 6, 5)),
        ("mon", wholeDay(2026, 6, 8)),
        ("next tue", wholeDay(2026, 6, 2)),
        ("in 3 days", wholeDay(2026, 6, 4)),
        ("in 2 weeks", wholeDay(2026, 6, 15)),
        ("in 4 hours", .date(now.addingTimeInterval(4 * 3600))),
        ("in 30 minutes", .date(now.addingTimeInterval(1800))),
        ("2026-12-01", wholeDay(2026, 12, 1)),
        ("2026-12-01 14:30", .date(day(2026, 12, 1, 14, 30))),
        ("2026-12-01T14:30", .date(day(2026, 12, 1, 14, 30))),
        ("fri 9:15", .date(day(2026, 6, 5, 9, 15))),
        // 12-hour times, a time alone (today), "at", "yesterday".
        ("fri 5pm", .date(day(2026, 6, 5, 17))),
        ("next friday 5 PM", .date(day(2026, 6, 5, 17))),
        ("tomorrow at 9:30am", .date(day(2026, 6, 2, 9, 30))),
        ("2026-12-01 12am", .date(day(2026, 12, 1, 0))),
        ("2026-12-01 12:05pm", .date(day(2026, 12, 1, 12, 5))),
        ("tomorrow 11 p.m.", .date(day(2026, 6, 2, 23))),
        ("5pm", .date(day(2026, 6, 1, 17))),
        ("at 17:45", .date(day(2026, 6, 1, 17, 45))),
        ("noon", .date(day(2026, 6, 1, 12))),
        ("fri midnight", .date(day(2026, 6, 5, 0))),
        ("yesterday", wholeDay(2026, 5, 31)),
        ("tomorrow 2pm for 2 hours", .timeSpan(.duration(.from(day(2026, 6, 2, 14)), for: 2, .hours))),
        ("in 3 days at 8am", .date(day(2026, 6, 4, 8))),
        ("2026-12-01..2026-12-03", .timeSpan(.start(.from(day(2026, 12, 1)), .to(day(2026, 12, 4))))),
        ("2026-12-01 09:00..2026-12-01 17:00", .timeSpan(.start(.from(day(2026, 12, 1, 9)), .to(day(2026, 12, 1, 17))))),
        ("2026-12-01..", .timeSpan(.start(.from(day(2026, 12, 1)), .unknown))),
        ("2026-12-01 for 3 days", wholeDay(2026, 12, 1, days: 3)),
        ("2026-12-01 14:00 for 2 hours", .timeSpan(.duration(.from(day(2026, 12, 1, 14)), for: 2, .hours))),
        ("tomorrow for 1 week", wholeDay(2026, 6, 2, days: 7)),
        ("none", .unknown),
        ("  ", .unknown),
    ]

    @Test("accepted forms", arguments: cases)
    func parses(text: String, expected: TodoDate) throws {
        #expect(try Self.parser.parse(text) == expected)
    }

    static let bad: [(String, String)] = [
        ("someday", "“someday” is neither a known word nor a date like 2026-12-01"),
        ("2026-02-30", "2026-02-30 is not a day of the calendar"),
        ("2026-12-01 25:00", "“25:00” is not a time like 14:30 or 2:30pm"),
        ("fri 13pm", "“13pm” is not a time like 2pm or 2:30pm (hours 1 to 12)"),
        ("fri 0am", "“0am” is not a time like 2pm or 2:30pm (hours 1 to 12)"),
        ("fri 2:5pm", "“2:5pm” is not a time like 2pm or 2:30pm (hours 1 to 12)"),
        ("fri 2:60pm", "“2:60pm” is not a time like 2pm or 2:30pm (hours 1 to 12)"),
        ("fri at", "“at” is not a time like 14:30 or 2:30pm"),
        ("pm", "“pm” is neither a known word nor a date like 2026-12-01"),
        ("10000-01-01", "10000-01-01 lies outside the years 1 to 9999, where dates must lie"),
        ("2026-12-03..2026-12-01", "the end lies before the start"),
        ("2026-12-01 for 0 days", "a duration must be positive"),
        ("2026-12-01 for 3 fortnights", "“fortnights” is not a unit: use seconds, minutes, hours, days or weeks"),
        ("in 3 years", "“in” counts days or weeks for a day, or minutes or hours for a moment"),
    ]

    @Test("refused forms name the problem and list the accepted forms", arguments: bad)
    func refuses(text: String, problem: String) {
        #expect(throws: DueDateError(text: text, problem: problem)) { try Self.parser.parse(text) }
        let message = DueDateError(text: text, problem: problem).description
        #expect(message.contains("Accepted forms: today, tomorrow"))
        #expect(message.contains("2026-12-01 for 3 days"))
    }

    static let formatter = DueDateFormatter(now: now, timeZone: zone)

    static let displays: [(TodoDate, String)] = [
        (.unknown, ""),
        (wholeDay(2026, 6, 1), "today"),
        (wholeDay(2026, 6, 2), "tomorrow"),
        (wholeDay(2026, 5, 31), "yesterday"),
        (wholeDay(2026, 6, 5), "Fri"),
        (wholeDay(2026, 12, 1), "Tue 1 Dec"),
        (wholeDay(2027, 1, 4), "4 Jan 2027"),
        (.date(day(2026, 6, 2, 14, 30)), "tomorrow 14:30"),
        // A moment at midnight is not the whole day.
        (.date(day(2026, 6, 1)), "today 00:00"),
        (wholeDay(2026, 12, 1, days: 3), "Tue 1 Dec – Thu 3 Dec"),
        (.timeSpan(.start(.from(day(2026, 12, 1)), .to(day(2026, 12, 4)))), "Tue 1 Dec – Thu 3 Dec"),
        (.timeSpan(.start(.from(day(2026, 6, 5)), .unknown)), "from Fri"),
        (.timeSpan(.duration(.from(day(2026, 6, 1, 14)), for: 2, .hours)), "today 14:00 for 2 hours"),
    ]

    @Test("display is short and relative", arguments: displays)
    func display(due: TodoDate, text: String) {
        #expect(Self.formatter.display(due) == text)
    }

    @Test("the editable text parses back to the same due date", arguments: cases.map(\.1))
    func editableText(due: TodoDate) throws {
        #expect(try Self.parser.parse(Self.formatter.text(due)) == due)
    }
}

@Suite("Queries")
struct QuerySpecs {
    static let now = Fixtures.start

    static func list() throws -> TodoList {
        let past = now.addingTimeInterval(-3600)
        return try TodoList(items: [
            try TodoItem(id: Fixtures.id(1), title: "overdue", due: .date(past), created: past),
            try TodoItem(id: Fixtures.id(2), title: "done late", state: .completed, due: .date(past), created: past,
                         changed: now),
            try TodoItem(id: Fixtures.id(3), title: "future", due: .date(now.addingTimeInterval(60)), created: past,
                         changed: now),
            try TodoItem(id: Fixtures.id(4), title: "open end", due: .timeSpan(.start(.from(past), .unknown)), created: past),
            try TodoItem(id: Fixtures.id(5), title: "done", state: .completed, created: past, changed: past),
        ])
    }

    @Test("filters all, active, completed and overdue")
    func filters() throws {
        let list = try Self.list()
        func titles(_ filter: TodoFilter) -> [String] { list.items(filter, now: Self.now).map(\.title) }
        #expect(titles(.all) == ["overdue", "done late", "future", "open end", "done"])
        #expect(titles(.active) == ["overdue", "future", "open end"])
        #expect(titles(.completed) == ["done late", "done"])
        #expect(titles(.overdue) == ["overdue"])
    }

    @Test("smart order: active first, then most recently changed")
    func smart() throws {
        let titles = try Self.list().items(sortedBy: .smart, now: Self.now).map(\.title)
        #expect(titles == ["future", "overdue", "open end", "done late", "done"])
    }

    @Test("due order: active first, each group by due date (a span by its start), those without one last")
    func dueOrder() throws {
        let titles = try Self.list().items(sortedBy: .due, now: Self.now).map(\.title)
        // "overdue" and "open end" start at the same moment: list order between them.
        #expect(titles == ["overdue", "open end", "future", "done late", "done"])
        let later = try TodoList(items: [
            try TodoItem(id: Fixtures.id(1), title: "no date", created: Self.now),
            try TodoItem(id: Fixtures.id(2), title: "next week", due: DueDateSpecs.wholeDay(2026, 6, 8), created: Self.now),
            try TodoItem(id: Fixtures.id(3), title: "tomorrow 9:00", due: .date(DueDateSpecs.day(2026, 6, 2, 9)), created: Self.now),
            try TodoItem(id: Fixtures.id(4), title: "also no date", created: Self.now),
        ])
        #expect(later.items(sortedBy: .due, now: Self.now).map(\.title) == ["tomorrow 9:00", "next week", "no date", "also no date"])
        #expect(later.items(.active, sortedBy: .due, now: Self.now).count == 4)
    }

    @Test("the first items of a filter, then those asked for past them, are the filter's items in order")
    func firstItems() throws {
        let list = try Self.list()
        let words = try #require(try TodoSearch("o"))
        for filter in TodoFilter.allCases {
            for sort in TodoSort.allCases {
                for search in [nil, words] {
                    let all = list.items(filter, sortedBy: sort, matching: search, now: Self.now)
                    for limit in 1...6 {
                        let (rows, past, found) = list.firstItems(
                            filter, sortedBy: sort, matching: search, now: Self.now, limit: limit, also: Set(list.ids))
                        let what = "\(filter) \(sort) \(search?.text ?? "") \(limit)"
                        #expect(rows == Array(all.prefix(limit)), "\(what)")
                        // Every item past the rows is asked for: the rest of the filter's items, once each.
                        #expect(rows + past == all, "\(what)")
                        #expect(found == all.count, "\(what)")
                    }
                }
            }
        }
        // Only those asked for that pass the filter and lie past the rows; none that the rows hold.
        let (rows, past, found) = list.firstItems(
            .active, now: Self.now, limit: 1, also: [Fixtures.id(1), Fixtures.id(2), Fixtures.id(4), Fixtures.id(9)])
        #expect(rows.map(\.title) == ["overdue"])
        #expect(past.map(\.title) == ["open end"])
        #expect(found == 3)
        #expect(list.firstItems(.all, now: Self.now, limit: 9, also: [Fixtures.id(5)]).pastRows.isEmpty)
    }

    @Test("counts say how many items are left")
    func counts() throws {
        let counts = try Self.list().counts(now: Self.now)
        #expect(counts == TodoCounts(total: 5, active: 3, completed: 2, overdue: 1))
        #expect(counts.itemsLeftText == "3 items left")
        #expect(TodoCounts.itemsLeft(1) == "1 item left")
        #expect(TodoCounts.itemsLeft(0) == "0 items left")
        #expect(!counts.allCompleted)
        #expect(!TodoList().counts(now: Self.now).allCompleted)
    }
}
