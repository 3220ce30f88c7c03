import Foundation

/// The days of the Gregorian calendar in one time zone, counted back past
/// its introduction in 1582 (the proleptic Gregorian calendar), as ISO 8601,
/// the JSON of the API and every browser count them.
///
/// ```swift
/// let calendar = DayCalendar(timeZone: .current)
/// let day = calendar.date(year: 1500, month: 3, day: 1)   // 1500-03-01, not the Julian 1 March
/// calendar.parts(of: day!).weekday                        // 5: a Thursday, Sunday being 1
/// ```
///
/// Foundation's `Calendar(identifier: .gregorian)` switches to the Julian
/// calendar before 15 October 1582, so that "0001-01-01" would be the
/// instant ISO 8601 writes as 0000-12-30. From 1583 on the two agree, and
/// Foundation's calendar is used, with its rules for the hours that a
/// change of clocks skips or repeats; before, the days are counted here, in
/// the time zone's offset of the time (a constant local mean time: no zone
/// changed its clocks before 1583).
public struct DayCalendar: Sendable {
    /// The time zone whose days are counted.
    public let timeZone: TimeZone
    private let calendar: Calendar

    /// Creates the calendar of `timeZone`.
    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The fields of a moment in ``timeZone``.
    public struct Parts: Equatable, Sendable {
        /// The year, 1 for the year 1.
        public var year: Int
        /// The month, 1 for January.
        public var month: Int
        /// The day of the month, from 1.
        public var day: Int
        /// The day of the week, 1 for Sunday to 7 for Saturday.
        public var weekday: Int
        /// The hour, 0 to 23.
        public var hour: Int
        /// The minute, 0 to 59.
        public var minute: Int
        /// The second, 0 to 59.
        public var second: Int

        /// How many days the day lies after 1970-01-01 (negative when before).
        public var daysSince1970: Int { DayCalendar.daysFromCivil(year, month, day) }
    }

    /// The first moment that Foundation's Gregorian calendar counts as
    /// ISO 8601 does: 1583-01-01 (UTC), comfortably after its switch.
    private static let firstFoundationDate = Date(timeIntervalSince1970: Double(daysFromCivil(1583, 1, 1)) * 86_400)

    /// The fields of `date` in ``timeZone``.
    public func parts(of date: Date) -> Parts {
        guard date < Self.firstFoundationDate else {
            let fields = calendar.dateComponents([.year, .month, .day, .weekday, .hour, .minute, .second], from: date)
            return Parts(
                year: fields.year ?? 1, month: fields.month ?? 1, day: fields.day ?? 1, weekday: fields.weekday ?? 1,
                hour: fields.hour ?? 0, minute: fields.minute ?? 0, second: fields.second ?? 0)
        }
        // No calendar counts this far (and Int would not hold it).
        let since1970 = date.timeIntervalSince1970.isFinite ? max(date.timeIntervalSince1970, -1e15) : 0
        let local = (since1970 + Double(timeZone.secondsFromGMT(for: date))).rounded(.down)
        let days = Int((local / 86_400).rounded(.down))
        let seconds = Int(local) - days * 86_400
        let (year, month, day) = Self.civil(fromDays: days)
        return Parts(
            year: year, month: month, day: day, weekday: Self.weekday(ofDays: days),
            hour: seconds / 3_600, minute: seconds % 3_600 / 60, second: seconds % 60)
    }

    /// The first moment of the day `year`-`month`-`day` in ``timeZone``,
    /// or `nil` when the calendar has no such day.
    public func date(year: Int, month: Int, day: Int) -> Date? {
        guard (1...12).contains(month), (1...Self.length(ofMonth: month, in: year)).contains(day) else { return nil }
        guard year < 1583 else {
            // Where the clocks skip midnight, the day starts at the hour after.
            return calendar.date(from: DateComponents(year: year, month: month, day: day))
        }
        return local(Self.daysFromCivil(year, month, day) * 86_400)
    }

    /// The moment `hour`:`minute`:`second` of the day of `date` in
    /// ``timeZone`` (where the clocks skip that time, the first moment
    /// after it), or `nil` for a time that is not one of a day.
    public func date(bySettingHour hour: Int, minute: Int, second: Int, of date: Date) -> Date? {
        guard (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else { return nil }
        guard date < Self.firstFoundationDate else {
            return calendar.date(bySettingHour: hour, minute: minute, second: second, of: date)
        }
        let day = parts(of: date)
        return local(Self.daysFromCivil(day.year, day.month, day.day) * 86_400 + hour * 3_600 + minute * 60 + second)
    }

    /// The moment whose local time, in ``timeZone``, is `seconds` after
    /// 1970-01-01 00:00, before 1583, where a zone's offset is constant.
    private func local(_ seconds: Int) -> Date {
        let guess = Date(timeIntervalSince1970: Double(seconds))
        return Date(timeIntervalSince1970: Double(seconds - timeZone.secondsFromGMT(for: guess)))
    }

    /// The first moment of the day of `date` in ``timeZone``.
    public func startOfDay(for date: Date) -> Date {
        guard date < Self.firstFoundationDate else { return calendar.startOfDay(for: date) }
        let day = parts(of: date)
        return local(Self.daysFromCivil(day.year, day.month, day.day) * 86_400)
    }

    /// The same time of day `days` days after `date` (before, when
    /// negative), or `nil` when that lies outside what the calendar counts.
    public func date(byAddingDays days: Int, to date: Date) -> Date? {
        if date >= Self.firstFoundationDate, let result = calendar.date(byAdding: .day, value: days, to: date),
           result >= Self.firstFoundationDate {
            return result
        }
        let start = parts(of: date)
        let (days, overflow) = Self.daysFromCivil(start.year, start.month, start.day).addingReportingOverflow(days)
        guard !overflow, abs(days) < 1 << 40 else { return nil }
        let seconds = days * 86_400 + start.hour * 3_600 + start.minute * 60 + start.second
        guard days < Self.daysFromCivil(1583, 1, 1) else {
            let (year, month, day) = Self.civil(fromDays: days)
            let fields = DateComponents(
                year: year, month: month, day: day, hour: start.hour, minute: start.minute, second: start.second)
            return calendar.date(from: fields)
        }
        return local(seconds)
    }

    // MARK: Counting days

    fileprivate static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        Int(GregorianDays.days(fromCivil: Int64(year), Int64(month), Int64(day)))
    }

    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let (year, month, day) = GregorianDays.civil(fromDays: Int64(days))
        return (Int(year), Int(month), Int(day))
    }

    /// 1 for Sunday to 7 for Saturday; 1970-01-01 was a Thursday.
    private static func weekday(ofDays days: Int) -> Int {
        ((days % 7 + 7 + 4) % 7) + 1
    }

    private static func length(ofMonth month: Int, in year: Int) -> Int {
        Int(GregorianDays.length(ofMonth: Int64(month), in: Int64(year)))
    }
}
