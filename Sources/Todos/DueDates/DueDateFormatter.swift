import Foundation

/// Writes a due date for people, relative to an injected `now` and time zone.
///
/// ```swift
/// let format = DueDateFormatter(now: now(), timeZone: .current)
/// format.display(due)   // "today", "tomorrow 14:30", "Fri 4 Dec", "1 Dec – 3 Dec", "from Fri 4 Dec"
/// format.text(due)      // "2026-12-04 14:30": what DueDateParser reads back to the same due date
/// ```
///
/// Names of months and weekdays are English abbreviations, independent of
/// the locale, like the words the parser reads.
public struct DueDateFormatter: Sendable {
    /// The moment "today" is counted from.
    public let now: Date
    /// The time zone the dates are written in.
    public let timeZone: TimeZone
    /// The start of the day of ``now`` in ``timeZone``: what a display text
    /// depends on besides the due date itself (texts stay right until it
    /// changes).
    public let today: Date
    private let year: Int
    private let todayNumber: Int
    private let calendar: DayCalendar

    /// Creates a formatter for `now` in `timeZone`.
    public init(now: Date, timeZone: TimeZone) {
        self.now = now
        self.timeZone = timeZone
        calendar = DayCalendar(timeZone: timeZone)
        today = calendar.startOfDay(for: now)
        let parts = calendar.parts(of: now)
        year = parts.year
        todayNumber = parts.daysSince1970
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    // MARK: Display

    /// A short text for a list row: "" for no due date, "today", "tomorrow 14:30"
    /// (a moment always with its time, "today 00:00" too),
    /// "Fri" within the coming week, "Fri 4 Dec" this year, "4 Dec 2027" otherwise;
    /// spans as "Fri 4 Dec – Sun 6 Dec", "today 14:00 for 2 hours" or "from Fri 4 Dec".
    public func display(_ due: TodoDate) -> String {
        switch due {
        case .unknown:
            return ""
        case .date(let date):
            // A moment, even at midnight ("today 00:00"): a whole day is a span.
            return dayName(date) + " " + clock(date)
        case .timeSpan(.start(.from(let start), .unknown)):
            return "from " + point(start)
        case .timeSpan(.start(.from(let start), .to(let end))):
            if isMidnight(start), isMidnight(end), let last = calendar.date(byAddingDays: -1, to: end) {
                return last <= start ? dayName(start) : dayName(start) + " – " + dayName(last)
            }
            return point(start) + " – " + point(end)
        case .timeSpan(.duration(.from(let start), let amount, let unit)):
            if unit == .days, isMidnight(start) {
                guard amount > 1, let last = calendar.date(byAddingDays: amount - 1, to: start) else {
                    return dayName(start)
                }
                return dayName(start) + " – " + dayName(last)
            }
            return point(start) + " for " + Self.amount(amount, unit)
        }
    }

    private func point(_ date: Date) -> String {
        isMidnight(date) ? dayName(date) : dayName(date) + " " + clock(date)
    }

    /// The day of `date` as ``display(_:)`` names it: "today",
    /// "yesterday", "tomorrow", "Fri" within the coming week, "Fri 4 Dec"
    /// this year, "4 Dec 2027" otherwise.
    public func day(of date: Date) -> String {
        dayName(date)
    }

    /// The hour and minute of `date`, as `14:05` (no seconds).
    public func hourAndMinute(of date: Date) -> String {
        let parts = calendar.parts(of: date)
        return String(format: "%02d:%02d", parts.hour, parts.minute)
    }

    private func dayName(_ date: Date) -> String {
        let parts = calendar.parts(of: date)
        let days = parts.daysSince1970 - todayNumber
        let weekday = Self.weekdays[(parts.weekday - 1 + 7) % 7]
        let month = Self.months[(parts.month - 1 + 12) % 12]
        switch days {
        case 0: return "today"
        case 1: return "tomorrow"
        case -1: return "yesterday"
        case 2...6: return weekday
        default:
            let sameYear = parts.year == year
            return sameYear ? "\(weekday) \(parts.day) \(month)" : "\(parts.day) \(month) \(parts.year)"
        }
    }

    // MARK: Editable text

    /// The text an edit field shows: what ``DueDateParser`` reads back to the
    /// same due date (to the second): "none", "2026-12-04", "2026-12-04 14:30",
    /// "2026-12-04..2026-12-06", "2026-12-04 14:30 for 2 hours", "2026-12-04..".
    public func text(_ due: TodoDate) -> String {
        switch due {
        case .unknown:
            return "none"
        case .date(let date):
            return day(date) + " " + clock(date)
        case .timeSpan(.start(.from(let start), .unknown)):
            return (isMidnight(start) ? day(start) : day(start) + " " + clock(start)) + ".."
        case .timeSpan(.start(.from(let start), .to(let end))):
            if isMidnight(start), isMidnight(end), let last = calendar.date(byAddingDays: -1, to: end) {
                return day(start) + ".." + day(last)
            }
            return day(start) + " " + clock(start) + ".." + day(end) + " " + clock(end)
        case .timeSpan(.duration(.from(let start), let amount, let unit)):
            let from = isMidnight(start) ? day(start) : day(start) + " " + clock(start)
            return unit == .days && amount == 1 && isMidnight(start) ? from : from + " for " + Self.amount(amount, unit)
        }
    }

    private func day(_ date: Date) -> String {
        let parts = calendar.parts(of: date)
        return String(format: "%04d-%02d-%02d", parts.year, parts.month, parts.day)
    }

    private func clock(_ date: Date) -> String {
        let parts = calendar.parts(of: date)
        let hhmm = String(format: "%02d:%02d", parts.hour, parts.minute)
        return parts.second == 0 ? hhmm : hhmm + String(format: ":%02d", parts.second)
    }

    private func isMidnight(_ date: Date) -> Bool {
        calendar.startOfDay(for: date) == date
    }

    private static func amount(_ amount: Int, _ unit: TodoDate.TimeSpan.Unit) -> String {
        let name = String(unit.rawValue.dropLast())
        return "\(amount) \(name)\(amount == 1 ? "" : "s")"
    }
}
