import Foundation

/// Reads what a person types as a due date, relative to an injected `now`
/// and time zone; the CLI's `--due` and the web page's free-text field use it.
///
/// ```swift
/// let parser = DueDateParser(now: now(), timeZone: .current)
/// try parser.parse("tomorrow")                // the whole of tomorrow
/// try parser.parse("fri 14:30")               // next Friday at 14:30
/// try parser.parse("2026-12-01..2026-12-03")  // three whole days
/// try parser.parse("2026-12-01 for 3 days")
/// ```
///
/// A day without a time means the whole day: `.timeSpan(.duration(.from(midnight), for: 1, .days))`,
/// overdue once the day is over. A time of day makes a moment (`.date`):
/// "14:30", "2:30pm", "2 pm", "noon" or "midnight", after a day ("fri 2pm",
/// "tomorrow at 9am") or alone (today at that time). Weekday names mean the
/// next such day after today ("fri" on a Friday is a week ahead); "today"
/// is today and "yesterday" the day before. Words are English and case does
/// not matter.
public struct DueDateParser: Sendable {
    /// The moment relative words are counted from.
    public let now: Date
    private let calendar: DayCalendar

    /// Creates a parser for `now` in `timeZone`.
    public init(now: Date, timeZone: TimeZone) {
        self.now = now
        calendar = DayCalendar(timeZone: timeZone)
    }

    /// A point in time as typed: a moment, or the start of a whole day.
    private struct Point {
        var date: Date
        var isWholeDay: Bool
    }

    /// Parses `text` into a due date.
    ///
    /// - Throws: ``DueDateError`` naming the problem and listing the accepted forms.
    public func parse(_ text: String) throws(DueDateError) -> TodoDate {
        let input = text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        func fail(_ problem: String) -> DueDateError { DueDateError(text: text, problem: problem) }
        if ["", "none", "no", "unknown", "never"].contains(input) { return .unknown }
        do throws(Problem) {
            let due: TodoDate
            if let range = input.range(of: "..") {
                let start = try point(String(input[..<range.lowerBound]).trimmed)
                let endText = String(input[range.upperBound...]).trimmed
                if endText.isEmpty {
                    due = .timeSpan(.start(.from(start.date), .unknown))
                } else {
                    let end = try point(endText)
                    let endDate = end.isWholeDay ? try addingDays(1, to: end.date) : end.date
                    guard endDate > start.date else { throw Problem("the end lies before the start") }
                    due = .timeSpan(.start(.from(start.date), .to(endDate)))
                }
            } else if let range = input.range(of: " for ") {
                let start = try point(String(input[..<range.lowerBound]))
                let (amount, unit) = try duration(String(input[range.upperBound...]))
                due = .timeSpan(.duration(.from(start.date), for: amount, unit))
            } else if input.hasPrefix("in "), let moment = try relativeMoment(String(input.dropFirst(3))) {
                due = .date(moment)
            } else {
                let single = try point(input)
                due = single.isWholeDay ? .timeSpan(.duration(.from(single.date), for: 1, .days)) : .date(single.date)
            }
            do {
                return try due.validated()
            } catch {
                // The domain's sentence becomes a clause: the accepted forms follow it.
                let sentence = error.description.dropLast(error.description.hasSuffix(".") ? 1 : 0)
                throw Problem(sentence.prefix(1).lowercased() + sentence.dropFirst())
            }
        } catch {
            throw fail(error.text)
        }
    }

    private struct Problem: Error {
        let text: String
        /// Whether the problem is an amount reaching past the valid dates.
        var isTooFar = false
        init(_ text: String, isTooFar: Bool = false) {
            self.text = text
            self.isTooFar = isTooFar
        }
    }

    // MARK: Points

    /// A day expression optionally followed by a time: "fri 14:30",
    /// "2026-12-01 14:30", "2026-12-01t14:30", "tomorrow at 2 pm",
    /// "in 3 days"; or a time alone, today: "14:30", "2pm", "noon".
    private func point(_ text: String) throws(Problem) -> Point {
        var words = text.split(separator: " ").map(String.init)
        if words.count == 1, let t = words[0].firstIndex(of: "t"), words[0].first?.isNumber == true {
            words = [String(words[0][..<t]), String(words[0][words[0].index(after: t)...])]
        }
        guard !words.isEmpty else { throw Problem("a date is missing") }
        // "2 pm" is one time, as "2pm" is; "at" before a time says nothing more.
        if words.count >= 2, Self.meridiems.contains(words[words.count - 1]) {
            words[words.count - 2] += words.removeLast()
        }
        if words.count >= 2, words[words.count - 2] == "at" { words.remove(at: words.count - 2) }
        if words.first == "next", words.count > 1 { words.removeFirst() }
        var day: Date
        var rest: ArraySlice<String>
        if words.count == 1, Self.isTime(words[0]) {
            day = calendar.startOfDay(for: now)
            rest = words[0...]
        } else if words.first == "in", words.count >= 3 {
            guard let amount = Int(words[1]), amount >= 0 else { throw Problem("“\(words[1])” is not a whole number") }
            let weeks: Bool
            switch words[2] {
            case "day", "days", "d": weeks = false
            case "week", "weeks", "w": weeks = true
            default: throw Problem("“in” counts days or weeks for a day, or minutes or hours for a moment")
            }
            day = try addingDays(try Self.days(amount, weeks: weeks), to: calendar.startOfDay(for: now))
            rest = words[3...]
        } else {
            day = try self.day(words[0])
            rest = words[1...]
        }
        guard let time = rest.first else { return Point(date: day, isWholeDay: true) }
        guard rest.count == 1 else { throw Problem("unexpected “\(rest.dropFirst().joined(separator: " "))”") }
        let (hour, minute, second) = try timeOfDay(time)
        guard let moment = calendar.date(bySettingHour: hour, minute: minute, second: second, of: day) else {
            throw Problem("\(time) does not exist on that day")
        }
        return Point(date: moment, isWholeDay: false)
    }

    private func day(_ word: String) throws(Problem) -> Date {
        let today = calendar.startOfDay(for: now)
        switch word {
        case "today": return today
        case "tomorrow", "tmr", "tom": return try addingDays(1, to: today)
        case "yesterday": return try addingDays(-1, to: today)
        default: break
        }
        if let weekday = Self.weekdays.firstIndex(where: { $0.contains(word) }) {
            let current = calendar.parts(of: now).weekday - 1
            let ahead = (weekday - current + 7) % 7
            return try addingDays(ahead == 0 ? 7 : ahead, to: today)
        }
        return try isoDay(word)
    }

    // Sunday first, as DayCalendar's weekday (1 is Sunday).
    private static let weekdays: [Set<String>] = [
        ["sun", "sunday"], ["mon", "monday"], ["tue", "tues", "tuesday"], ["wed", "weds", "wednesday"],
        ["thu", "thur", "thurs", "thursday"], ["fri", "friday"], ["sat", "saturday"],
    ]

    private func isoDay(_ word: String) throws(Problem) -> Date {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0].count > 4, parts[0].allSatisfy(\.isASCII), parts[0].allSatisfy(\.isNumber) {
            throw Problem("\(word) lies outside the years 1 to 9999, where dates must lie")
        }
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { throw Problem("“\(word)” is neither a known word nor a date like 2026-12-01") }
        guard let date = calendar.date(year: year, month: month, day: day) else {
            throw Problem("\(word) is not a day of the calendar")
        }
        return date
    }

    /// "am" and "pm" as they are written after a time.
    private static let meridiems: Set<String> = ["am", "pm", "a.m.", "p.m."]

    /// Whether `word` is written as a time of day rather than a day: it
    /// holds a colon, ends in "am" or "pm", or is "noon" or "midnight".
    private static func isTime(_ word: String) -> Bool {
        word.contains(":") || word == "noon" || word == "midnight"
            || (word.first?.isNumber == true && meridiems.contains { word.hasSuffix($0) })
    }

    private func timeOfDay(_ word: String) throws(Problem) -> (Int, Int, Int) {
        switch word {
        case "noon": return (12, 0, 0)
        case "midnight": return (0, 0, 0)
        default: break
        }
        // A 12-hour time: "2pm", "2:30pm", "12am" (midnight), "12pm" (noon).
        if let meridiem = Self.meridiems.first(where: { word.hasSuffix($0) }) {
            let clock = word.dropLast(meridiem.count).split(separator: ":", omittingEmptySubsequences: false)
            let minutes = clock.count == 2 ? clock[1] : "00"
            guard (1...2).contains(clock.count), let hour = Int(clock[0]), (1...12).contains(hour),
                  minutes.count == 2, let minute = Int(minutes), (0..<60).contains(minute)
            else { throw Problem("“\(word)” is not a time like 2pm or 2:30pm (hours 1 to 12)") }
            return (hour % 12 + (meridiem.hasPrefix("p") ? 12 : 0), minute, 0)
        }
        let parts = word.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard (2...3).contains(parts.count), let hour = parts[0], let minute = parts[1],
              (0..<24).contains(hour), (0..<60).contains(minute)
        else { throw Problem("“\(word)” is not a time like 14:30 or 2:30pm") }
        let second = parts.count == 3 ? parts[2] : 0
        guard let second, (0..<60).contains(second) else { throw Problem("“\(word)” is not a time like 14:30:15") }
        return (hour, minute, second)
    }

    // MARK: Amounts

    /// "30 minutes", "4 hours" after "in": a moment from now, or `nil` for
    /// day units, which make a whole day instead.
    private func relativeMoment(_ text: String) throws(Problem) -> Date? {
        let amount: Int, unit: TodoDate.TimeSpan.Unit
        do {
            (amount, unit) = try duration(text)
        } catch where error.isTooFar {
            throw error
        } catch {
            return nil
        }
        switch unit {
        case .days: return nil
        case .seconds, .minutes, .hours: return now.addingTimeInterval(Double(amount) * unit.seconds)
        }
    }

    /// The longest amount of time typed: longer than the years 1 to 9999 of
    /// ``TodoDate/validDates``, short enough that no arithmetic on it
    /// overflows. Longer amounts are refused before any date is computed.
    private static let longestSpan: TimeInterval = 400_000_000_000

    private func duration(_ text: String) throws(Problem) -> (Int, TodoDate.TimeSpan.Unit) {
        let words = text.split(separator: " ")
        guard words.count == 2, let amount = Int(words[0]) else {
            throw Problem("“\(text)” is not an amount like 3 days")
        }
        guard amount > 0 else { throw Problem("a duration must be positive") }
        switch words[1] {
        case "second", "seconds", "sec", "secs", "s": return try Self.checked(amount, .seconds)
        case "minute", "minutes", "min", "mins", "m": return try Self.checked(amount, .minutes)
        case "hour", "hours", "h", "hr", "hrs": return try Self.checked(amount, .hours)
        case "day", "days", "d": return try Self.checked(amount, .days)
        case "week", "weeks", "w": return (try Self.days(amount, weeks: true), .days)
        default: throw Problem("“\(words[1])” is not a unit: use seconds, minutes, hours, days or weeks")
        }
    }

    /// `amount` of `unit`, refused when it reaches past the valid dates.
    private static func checked(
        _ amount: Int, _ unit: TodoDate.TimeSpan.Unit
    ) throws(Problem) -> (Int, TodoDate.TimeSpan.Unit) {
        guard Double(amount) * unit.seconds <= longestSpan else { throw tooFar(amount, unit.rawValue) }
        return (amount, unit)
    }

    /// `amount` days, or weeks, as a count of days, refused when it
    /// reaches past the valid dates.
    private static func days(_ amount: Int, weeks: Bool) throws(Problem) -> Int {
        let perUnit = weeks ? 7 : 1
        guard Double(amount) * Double(perUnit) * 86_400 <= longestSpan else {
            throw tooFar(amount, weeks ? "weeks" : "days")
        }
        return amount * perUnit
    }

    private static func tooFar(_ amount: Int, _ unit: String) -> Problem {
        Problem("\(amount) \(unit) reaches past the dates allowed, which run from the year 1 to 9999", isTooFar: true)
    }

    private func addingDays(_ days: Int, to date: Date) throws(Problem) -> Date {
        guard let result = calendar.date(byAddingDays: days, to: date) else {
            throw Problem("the date lies outside the calendar")
        }
        return result
    }
}
