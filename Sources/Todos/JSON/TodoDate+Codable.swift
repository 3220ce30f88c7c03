import Foundation

/// `{"kind": "unknown"}`, `{"kind": "date", "date": D}`,
/// `{"kind": "span", "start": D, "end": D or null}`,
/// `{"kind": "duration", "start": D, "amount": 3, "unit": "days"}`.
extension TodoDate: Codable {
    private enum Key: String, CodingKey { case kind, date, start, end, amount, unit }
    private static let kinds = ["unknown", "date", "span", "duration"]
    /// The fields of each kind.
    private static let fields = [
        "unknown": ["kind"], "date": ["kind", "date"], "span": ["kind", "start", "end"],
        "duration": ["kind", "start", "amount", "unit"],
    ]

    /// Reads a due date in the documented shape and validates it; its dates
    /// must lie in ``validDates``, and a field its kind does not have is
    /// refused, unless the document is a store's own (``TodoJSON/Source/store``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let checkingRange = decoder.checksDateRange
        let due: TodoDate
        let blamed: Key
        let kind = try container.decodeTag(forKey: .kind, allowed: Self.kinds)
        try decoder.refuseUnknownFields(allowing: Self.fields[kind] ?? [])
        switch kind {
        case "date":
            due = .date(try container.decodeDate(forKey: .date, checkingRange: checkingRange))
            blamed = .date
        case "span":
            let start = try container.decodeDate(forKey: .start, checkingRange: checkingRange)
            // An end left out, or null, is unknown.
            let end = try !container.contains(.end) || container.decodeNil(forKey: .end)
                ? nil : container.decodeDate(forKey: .end, checkingRange: checkingRange)
            due = .timeSpan(.start(.from(start), end.map { .to($0) } ?? .unknown))
            blamed = .end
        case "duration":
            let start = try container.decodeDate(forKey: .start, checkingRange: checkingRange)
            let amount = try container.decode(Int.self, forKey: .amount)
            let unit = try container.decodeTag(forKey: .unit, allowed: TimeSpan.Unit.allCases.map(\.rawValue))
            due = .timeSpan(.duration(.from(start), for: amount, TimeSpan.Unit(rawValue: unit) ?? .days))
            blamed = .amount
        default:
            due = .unknown
            blamed = .kind
        }
        self = try container.validating(blamed) { () throws(TodoError) in
            try due.validated(checkingRange: checkingRange)
        }
    }

    /// Writes the due date in the documented shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .unknown:
            try container.encode("unknown", forKey: .kind)
        case .date(let date):
            try container.encode("date", forKey: .kind)
            try container.encodeDate(date, forKey: .date)
        case .timeSpan(.start(.from(let start), let end)):
            try container.encode("span", forKey: .kind)
            try container.encodeDate(start, forKey: .start)
            if case .to(let end) = end {
                try container.encodeDate(end, forKey: .end)
            } else {
                try container.encodeNil(forKey: .end)
            }
        case .timeSpan(.duration(.from(let start), let amount, let unit)):
            try container.encode("duration", forKey: .kind)
            try container.encodeDate(start, forKey: .start)
            try container.encode(amount, forKey: .amount)
            try container.encode(unit, forKey: .unit)
        }
    }
}
