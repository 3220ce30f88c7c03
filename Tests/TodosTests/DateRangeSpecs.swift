import Foundation
import Testing
@testable import Todos

/// Dates from input are kept to the years 1–9999, every number typed is
/// checked before any arithmetic, and whatever is written reads back.
@Suite("Dates from input")
struct DateRangeSpecs {
    static let parser = DueDateParser(now: Fixtures.start, timeZone: .gmt)

    @Suite("typed due dates far away")
    struct Typed {
        /// Each of these once trapped (an overflow) or was accepted and then
        /// could not be read back.
        static let tooFar = [
            "in 999999999999999 days",
            "in 106751991168 days",
            "in 9223372036854775807 hours",
            "in 9223372036854775807 weeks",
            "in 9223372036854775807 days",
            "in 9223372036854775807 seconds",
            "2026-12-01 for 9223372036854775807 weeks",
            "2026-12-01 for 9223372036854775807 days",
            "2026-12-01 14:00 for 9223372036854775807 hours",
            "in 3000000 days",
            "9999-12-31..9999-12-31",
            "9999-12-31 23:00 for 25 hours",
            "9999-12-31 for 2 days",
        ]

        @Test("are refused with the range allowed", arguments: tooFar)
        func areRefused(text: String) {
            #expect {
                try parser.parse(text)
            } throws: { error in
                let message = (error as? DueDateError)?.problem ?? ""
                return message.contains("9999")
            }
        }

        @Test func theLastDayOfTheRangeIsAccepted() throws {
            let due = try parser.parse("9999-12-30")
            #expect(due.deadline.map(TodoDate.validDates.contains) == true)
            // The whole day 9999-12-31 ends at the first moment of the year 10000, in every time zone a day later.
            for zone in [TimeZone.gmt, TimeZone(secondsFromGMT: -12 * 3600), TimeZone(secondsFromGMT: 14 * 3600)] {
                let parser = DueDateParser(now: Fixtures.start, timeZone: try #require(zone))
                let lastDay = try parser.parse("9999-12-31")
                #expect(lastDay.start.map(TodoDate.validDates.contains) == true)
            }
            #expect(try parser.parse("9999-12-31 23:00 for 2 hours").start.map(TodoDate.validDates.contains) == true)
            #expect(try parser.parse("9999-12-31 23:59").start.map(TodoDate.validDates.contains) == true)
        }

        @Test func theFirstDayOfTheRangeIsAccepted() throws {
            #expect(try parser.parse("0001-01-01").start == TodoDate.validDates.lowerBound)
            #expect(try parser.parse("0001-01-01 00:00").start == TodoDate.validDates.lowerBound)
            #expect(throws: DueDateError.self) { try parser.parse("0000-12-31") }
        }
    }

    /// Before 1583, days are those of ISO 8601 and the browser (the
    /// Gregorian calendar counted back), not Foundation's Julian ones.
    @Suite("days before the Gregorian calendar began")
    struct EarlyDays {
        /// Every day typed is the instant the JSON writes with the same
        /// date, and is written back as typed, in a zone whose offset was
        /// then its local mean time.
        @Test(arguments: ["0001-01-01", "0500-02-28", "1200-02-29", "1500-03-01", "1582-10-10", "1582-12-31"])
        func aDayTypedIsTheDayTheJSONWrites(day: String) throws {
            let utc = try DateRangeSpecs.parser.parse(day)
            #expect(utc.start.map(ISO8601Milliseconds.string(from:)) == day + "T00:00:00.000Z")
            let zone = try #require(TimeZone(identifier: "America/New_York"))
            let due = try DueDateParser(now: Fixtures.start, timeZone: zone).parse(day)
            let format = DueDateFormatter(now: Fixtures.start, timeZone: zone)
            #expect(format.text(due) == day)
            // New York's local mean time was 4:56:02 behind UTC.
            #expect(due.start.map(ISO8601Milliseconds.string(from:)) == day + "T04:56:02.000Z")
        }

        @Test func aDayThatOnlyTheJulianCalendarHasIsRefused() {
            #expect(throws: DueDateError.self) { try DateRangeSpecs.parser.parse("1500-02-29") }
            #expect(throws: DueDateError.self) { try DateRangeSpecs.parser.parse("0100-02-29") }
        }

        @Test func daysAreCountedAcrossTheYear1582AsOnTheCalendarOfToday() throws {
            let span = try DateRangeSpecs.parser.parse("1582-10-01 for 20 days")
            let format = DueDateFormatter(now: Fixtures.start, timeZone: .gmt)
            #expect(format.display(span) == "1 Oct 1582 – 20 Oct 1582")
            let range = try DateRangeSpecs.parser.parse("1582-12-30..1583-01-02")
            #expect(format.display(range) == "30 Dec 1582 – 2 Jan 1583")
            #expect(format.text(range) == "1582-12-30..1583-01-02")
            let moment = try DateRangeSpecs.parser.parse("1066-10-14 09:30")
            #expect(moment.start.map(ISO8601Milliseconds.string(from:)) == "1066-10-14T09:30:00.000Z")
            #expect(format.text(moment) == "1066-10-14 09:30")
        }

        @Test func aWeekdayIsTheOneOfTheDay() throws {
            let calendar = DayCalendar(timeZone: .gmt)
            // 1 March 1500 and 1 January 1 were a Thursday and a Monday, counted back.
            #expect(calendar.date(year: 1500, month: 3, day: 1).map { calendar.parts(of: $0).weekday } == 5)
            #expect(calendar.date(year: 1, month: 1, day: 1).map { calendar.parts(of: $0).weekday } == 2)
            #expect(calendar.date(year: 2026, month: 11, day: 27).map { calendar.parts(of: $0).weekday } == 6)
        }
    }

    @Suite("validated due dates")
    struct Validated {
        static let lastMoment = TodoDate.validDates.upperBound

        @Test func aDateAfterTheYear9999IsRefused() throws {
            let next = Date(timeIntervalSince1970: Self.lastMoment.timeIntervalSince1970 + 0.001)
            #expect(throws: TodoError.dateOutOfRange(next)) { try TodoDate.date(next).validated() }
            #expect(try TodoDate.date(Self.lastMoment).validated() == .date(Self.lastMoment))
        }

        @Test func aDurationWhoseEndIsTooFarIsRefused() {
            let start = Fixtures.start
            #expect(throws: TodoError.self) {
                try TodoDate.timeSpan(.duration(.from(start), for: .max, .days)).validated()
            }
            #expect(throws: TodoError.self) {
                try TodoDate.timeSpan(.duration(.from(start), for: 3_000_000, .days)).validated()
            }
        }

        @Test func theMessageSaysWhatIsAllowed() {
            let far = Date(timeIntervalSince1970: 1e300)
            #expect(TodoError.dateOutOfRange(far).description
                == "A date must lie between 0001-01-01 and 9999-12-31 (UTC); one far in the future does not.")
            let year10000 = Date(timeIntervalSince1970: 253_402_300_800)
            #expect(TodoError.dateOutOfRange(year10000).description.contains("10000-01-01T00:00:00.000Z"))
        }

        @Test func anItemCannotBeGivenAnOutOfRangeDueDate() throws {
            let item = try TodoItem(id: Fixtures.id(1), title: "Milk", created: Fixtures.start)
            let far = Date(timeIntervalSince1970: 253_402_300_800)
            #expect(throws: TodoError.dateOutOfRange(far)) {
                try item.alter(.due(to: .date(far)), at: Fixtures.start)
            }
        }
    }

    @Suite("ISO 8601 text")
    struct ISOText {
        /// Years an older version wrote for far dates, which it could not read back.
        static let extended = [
            "-0001-12-31T00:01:00.000Z",
            "0000-01-01T00:00:00.000Z",
            "10000-01-01T23:59:59.999Z",
            "10240-03-17T00:00:00.000Z",
            "292000000-01-01T00:00:00.000Z",
            "-292000000-01-01T00:00:00.000Z",
        ]

        @Test("reads back what it writes", arguments: extended)
        func roundTrip(text: String) throws {
            let date = try #require(ISO8601Milliseconds.date(from: text))
            #expect(ISO8601Milliseconds.string(from: date) == text)
        }

        @Test func writesAnyDateWithoutTrapping() {
            for seconds in [1e300, -1e300, .infinity, -.infinity, .nan, 9.3e15, -9.3e15] {
                let text = ISO8601Milliseconds.string(from: Date(timeIntervalSince1970: seconds))
                #expect(ISO8601Milliseconds.date(from: text) != nil, "\(seconds) was written as \(text)")
            }
        }

        @Test func refusesYearsOfTenDigitsAndMalformedSigns() {
            #expect(ISO8601Milliseconds.date(from: "1234567890-01-01T00:00:00Z") == nil)
            #expect(ISO8601Milliseconds.date(from: "--001-01-01T00:00:00Z") == nil)
            #expect(ISO8601Milliseconds.date(from: "999-01-01T00:00:00Z") == nil)
        }
    }

    @Suite("JSON")
    struct JSON {
        static let outOfRange = [
            #"{"kind": "date", "date": "9999-12-31T23:59:59.999-23:59"}"#,
            #"{"kind": "date", "date": "0000-01-01T00:00:00+23:59"}"#,
            #"{"kind": "span", "start": "2026-01-01T00:00:00Z", "end": "10000-01-01T00:00:00Z"}"#,
            #"{"kind": "duration", "start": "2026-01-01T00:00:00Z", "amount": 9223372036854775807, "unit": "days"}"#,
            #"{"kind": "duration", "start": "9999-12-31T00:00:00Z", "amount": 2, "unit": "days"}"#,
        ]

        @Test("input with a date out of range is refused, naming the field", arguments: outOfRange)
        func inputIsRefused(json: String) {
            #expect {
                try TodoJSON.decode(TodoDate.self, from: Data(json.utf8))
            } throws: { error in
                (error as? TodoJSONError)?.description.contains("0001-01-01 and 9999-12-31") == true
            }
        }

        @Test("a store's own file reads as it is", arguments: outOfRange)
        func storedIsRead(json: String) throws {
            let due = try TodoJSON.decode(TodoDate.self, from: Data(json.utf8), reading: .store)
            let again = try TodoJSON.decode(TodoDate.self, from: TodoJSON.encode(due), reading: .store)
            #expect(again == due)
        }

        @Test func anImportedItemCreatedInTheYear0IsRefused() {
            let json = #"{"id": "00000000-0000-0000-0000-000000000001", "title": "a", "created": "0000-01-01T00:00:00+23:59"}"#
            #expect(throws: TodoJSONError.self) { try TodoJSON.decode(TodoItem.self, from: Data(json.utf8)) }
            #expect(throws: Never.self) { try TodoJSON.decode(TodoItem.self, from: Data(json.utf8), reading: .store) }
        }
    }
}

/// A saved change whose placements do not ascend is refused, not trapped on.
@Suite("Restoring items at positions out of order")
struct RestoreOrderSpecs {
    @Test func placementsThatDoNotAscendAreRefused() throws {
        let kept = try TodoItem(id: Fixtures.id(1), title: "Kept", created: Fixtures.start)
        let a = try TodoItem(id: Fixtures.id(2), title: "A", created: Fixtures.start)
        let b = try TodoItem(id: Fixtures.id(3), title: "B", created: Fixtures.start)
        var list = try TodoList(items: [kept])
        #expect(throws: TodoError.self) {
            try list.apply(.restore([TodoList.Placement(a, at: 2), TodoList.Placement(b, at: 0)]))
        }
        #expect(list.items == [kept])
    }
}
