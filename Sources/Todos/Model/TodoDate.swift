import Foundation

/// When an item is due: unknown, a moment, or a time span.
///
/// ```swift
/// let due: TodoDate = .unknown
/// let due: TodoDate = .date(aDate)
/// let due: TodoDate = .timeSpan(.start(.from(start), .to(end)))
/// let due: TodoDate = .timeSpan(.start(.from(start), .unknown))
/// let due: TodoDate = .timeSpan(.duration(.from(start), for: 3, .days))
/// ```
public enum TodoDate: Equatable, Hashable, Sendable {
    /// No due date.
    case unknown
    /// Due at a moment.
    case date(Date)
    /// Due within a span of time.
    case timeSpan(TimeSpan)

    /// A span of time: a start and an end (maybe unknown), or a start and a
    /// duration.
    public enum TimeSpan: Equatable, Hashable, Sendable {
        /// Where a span starts.
        public enum Start: Equatable, Hashable, Sendable {
            /// The span starts at this date.
            case from(Date)
        }

        /// Where a span ends.
        public enum End: Equatable, Hashable, Sendable {
            /// The end is not known yet.
            case unknown
            /// The span ends at this date, which lies after its start.
            case to(Date)
        }

        /// The unit of a duration.
        public enum Unit: String, Equatable, Hashable, Sendable, Codable, CaseIterable {
            /// Seconds.
            case seconds
            /// Minutes.
            case minutes
            /// Hours.
            case hours
            /// Days of 24 hours.
            case days

            /// The unit's length in seconds.
            public var seconds: TimeInterval {
                switch self {
                case .seconds: 1
                case .minutes: 60
                case .hours: 3600
                case .days: 86_400
                }
            }
        }

        /// A span from a start to an end, which may be unknown.
        case start(Start, End)
        /// A span from a start for a positive number of units.
        case duration(Start, for: Int, Unit)

        /// When the span starts.
        public var start: Date {
            switch self {
            case .start(.from(let date), _), .duration(.from(let date), _, _): date
            }
        }

        /// When the span ends, or `nil` when its end is unknown.
        public var end: Date? {
            switch self {
            case .start(_, .unknown): nil
            case .start(_, .to(let end)): end
            case .duration(.from(let start), let amount, let unit):
                start.addingTimeInterval(Double(amount) * unit.seconds)
            }
        }
    }

    /// The moment after which an active item is overdue: the date, or the
    /// end of a span; `nil` when there is no such moment (no due date, or a
    /// span with an unknown end).
    public var deadline: Date? {
        switch self {
        case .unknown: nil
        case .date(let date): date
        case .timeSpan(let span): span.end
        }
    }

    /// The first moment the item is due at: the date, or the start of a span.
    public var start: Date? {
        switch self {
        case .unknown: nil
        case .date(let date): date
        case .timeSpan(let span): span.start
        }
    }

    /// The dates a due date may name, its computed end included: from the
    /// first moment of the year 1 to the last millisecond of the year 9999,
    /// in UTC. Every such date is written and read back exactly.
    public static let validDates: ClosedRange<Date> =
        Date(timeIntervalSince1970: -62_135_596_800)...Date(timeIntervalSince1970: 253_402_300_799.999)

    /// This due date with dates rounded to milliseconds, after checking that
    /// a span ends after it starts, a duration is positive, and every date
    /// lies in ``validDates`` (the computed end of a duration may lie up to
    /// a day after it: ``computedEndAllowance``).
    ///
    /// - Throws: ``TodoError/spanEndsBeforeStart(start:end:)``,
    ///   ``TodoError/durationNotPositive(_:)`` or ``TodoError/dateOutOfRange(_:)``.
    public func validated() throws(TodoError) -> TodoDate {
        try validated(checkingRange: true)
    }

    /// ``validated()``, with the check of ``validDates`` left out when
    /// `checkingRange` is false: for reading a file written by an older
    /// version, which may hold a date outside it.
    func validated(checkingRange: Bool) throws(TodoError) -> TodoDate {
        let checked: TodoDate
        switch self {
        case .unknown:
            return .unknown
        case .date(let date):
            checked = .date(date.roundedToMilliseconds)
        case .timeSpan(.start(.from(let start), .unknown)):
            checked = .timeSpan(.start(.from(start.roundedToMilliseconds), .unknown))
        case .timeSpan(.start(.from(let start), .to(let end))):
            let (start, end) = (start.roundedToMilliseconds, end.roundedToMilliseconds)
            guard end > start else { throw .spanEndsBeforeStart(start: start, end: end) }
            checked = .timeSpan(.start(.from(start), .to(end)))
        case .timeSpan(.duration(.from(let start), let amount, let unit)):
            guard amount > 0 else { throw .durationNotPositive(amount) }
            checked = .timeSpan(.duration(.from(start.roundedToMilliseconds), for: amount, unit))
        }
        if checkingRange {
            if case .timeSpan(.duration) = checked {
                try Self.checkRange(checked.start)
                try Self.checkComputedEnd(checked.deadline)
            } else {
                try Self.checkRange(checked.start, checked.deadline)
            }
        }
        return checked
    }

    /// How far past ``validDates`` the computed end of a duration may lie:
    /// one day, so that the last day allowed, `9999-12-31` (a duration of one
    /// day from its first moment), is a due date in every time zone.
    static let computedEndAllowance: TimeInterval = 86_400

    /// Throws when the end of a duration lies before ``validDates`` or more
    /// than ``computedEndAllowance`` after it.
    static func checkComputedEnd(_ end: Date?) throws(TodoError) {
        guard let end else { return }
        let upper = validDates.upperBound.addingTimeInterval(computedEndAllowance)
        guard (validDates.lowerBound...upper).contains(end) else { throw .dateOutOfRange(end) }
    }

    /// Throws for the first of `dates` outside ``validDates``.
    static func checkRange(_ dates: Date?...) throws(TodoError) {
        for case let date? in dates where !validDates.contains(date) { throw .dateOutOfRange(date) }
    }
}
