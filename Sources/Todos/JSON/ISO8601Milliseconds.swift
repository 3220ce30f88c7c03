import Foundation

/// The date format of the JSON documents: ISO 8601 in UTC with milliseconds,
/// `2026-12-01T09:30:00.000Z`.
///
/// Written by hand rather than with a date formatter so that it is fast,
/// needs no locale, and reads back exactly the date it wrote (dates in the
/// domain are kept to the millisecond).
public enum ISO8601Milliseconds {
    /// The text of `date`, rounded to the millisecond, in UTC.
    ///
    /// Years outside 0000–9999 are written with a sign or more digits
    /// (`-0001-12-31T…`, `10000-01-01T…`), which ``date(from:)`` reads back;
    /// the domain lets no such date in (``TodoDate/validDates``), but a file
    /// written by an older version may hold one. A date beyond what a
    /// millisecond count can hold (or not a number) is written as the
    /// nearest one that can be, rather than trapping.
    public static func string(from date: Date) -> String {
        let milliseconds = clampedMilliseconds(date.timeIntervalSince1970)
        let (seconds, millis) = floorDivide(milliseconds, 1000)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = GregorianDays.civil(fromDays: days)
        guard (0...9999).contains(year) else {
            return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
                + "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay % 3600 / 60, 2) + ":" + pad(secondOfDay % 60, 2)
                + "." + pad(millis, 3) + "Z"
        }
        // The usual years are written into one buffer of 24 bytes, not
        // joined from a dozen small strings (every item and change written
        // to the API or the history log carries two dates).
        return String(unsafeUninitializedCapacity: 24) { text in
            func put(_ value: Int64, width: Int, at end: Int) {
                var value = value
                for index in stride(from: end - 1, through: end - width, by: -1) {
                    text[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
                    value /= 10
                }
            }
            put(year, width: 4, at: 4)
            text[4] = UInt8(ascii: "-")
            put(month, width: 2, at: 7)
            text[7] = UInt8(ascii: "-")
            put(day, width: 2, at: 10)
            text[10] = UInt8(ascii: "T")
            put(secondOfDay / 3600, width: 2, at: 13)
            text[13] = UInt8(ascii: ":")
            put(secondOfDay % 3600 / 60, width: 2, at: 16)
            text[16] = UInt8(ascii: ":")
            put(secondOfDay % 60, width: 2, at: 19)
            text[19] = UInt8(ascii: ".")
            put(millis, width: 3, at: 23)
            text[23] = UInt8(ascii: "Z")
            return 24
        }
    }

    /// The date `text` denotes, or `nil` when it is not an ISO 8601 date and
    /// time: `YYYY-MM-DDTHH:MM:SS`, optional fraction, then `Z` or `±HH:MM`.
    /// Fractions finer than a millisecond are rounded. The year may carry a
    /// sign and up to nine digits, as ``string(from:)`` writes the rare date
    /// outside 0000–9999, so that everything written reads back.
    public static func date(from text: String) -> Date? {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.year(), scanner.skip("-"), let month = scanner.number(2), scanner.skip("-"),
              let day = scanner.number(2), scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
              let hour = scanner.number(2), scanner.skip(":"), let minute = scanner.number(2), scanner.skip(":"),
              let second = scanner.number(2),
              (1...12).contains(month), (1...GregorianDays.length(ofMonth: month, in: year)).contains(day),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var millis: Int64 = 0
        if scanner.skip(".") {
            guard let fraction = scanner.fraction() else { return nil }
            millis = fraction
        }
        var offset: Int64 = 0
        if scanner.skip("Z") || scanner.skip("z") {
            offset = 0
        } else if let sign = scanner.sign(), let hours = scanner.number(2), scanner.skip(":"),
                  let minutes = scanner.number(2), hours < 24, minutes < 60 {
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard scanner.isAtEnd else { return nil }
        // Nine digits of years fit in an Int64 count of seconds, not always of milliseconds.
        let seconds = GregorianDays.days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        let (total, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow, total <= Int64.max - millis else {
            return Date(timeIntervalSince1970: Double(seconds) + Double(millis) / 1000)
        }
        return Date(timeIntervalSince1970: Double(total + millis) / 1000)
    }

    /// The largest count of milliseconds written, the largest `Double` below
    /// `Int64.max`: about 292 million years either side of 1970.
    private static let millisecondLimit: Double = 9_223_372_036_854_774_784

    /// `seconds` in whole milliseconds, kept within what can be written.
    private static func clampedMilliseconds(_ seconds: TimeInterval) -> Int64 {
        let milliseconds = (seconds * 1000).rounded()
        guard milliseconds.isFinite else { return milliseconds > 0 ? Int64(millisecondLimit) : -Int64(millisecondLimit) }
        return Int64(min(max(milliseconds, -millisecondLimit), millisecondLimit))
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }
}

/// Reads fixed-width numbers and marks from UTF-8 bytes.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    mutating func skip(_ mark: Character) -> Bool {
        guard index < bytes.count, let ascii = mark.asciiValue, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    /// A year: an optional sign, then four to nine digits.
    mutating func year() -> Int64? {
        var sign: Int64 = 1
        if skip("-") { sign = -1 } else { _ = skip("+") }
        var digits = 0
        while index + digits < bytes.count, (48...57).contains(bytes[index + digits]), digits < 10 { digits += 1 }
        guard (4...9).contains(digits), let value = number(digits) else { return nil }
        return sign * value
    }

    mutating func number(_ width: Int) -> Int64? {
        guard index + width <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[index..<(index + width)] {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - 48)
        }
        index += width
        return value
    }

    /// Reads 1 to 9 fraction digits as milliseconds, rounded.
    mutating func fraction() -> Int64? {
        var nanos: Int64 = 0
        var count = 0
        while index < bytes.count, (48...57).contains(bytes[index]), count < 9 {
            nanos = nanos * 10 + Int64(bytes[index] - 48)
            index += 1
            count += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<9 { nanos *= 10 }
        return (nanos + 500_000) / 1_000_000
    }

    mutating func sign() -> Int64? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
