import Foundation

/// `{"kind": "unknown"}`, `{"kind": "date", "date": D}`,
/// `{"kind": "span", "start": D, "end": D or null}`,
/// `{"kind": "duration", "start": D, "amount": 3, "unit": "days"}`.
extension TodoDate: Codable {
    private enum Key: String, CodingKey { case kind, date, start, end, amount, unit }
    private static let kinds = ["unknown", "date", "span", "duration"]

    /// Reads a due date in the documented shape and validates it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        switch try container.decodeTag(forKey: .kind, allowed: Self.kinds) {
        case "date":
            self = .date(try container.decodeDate(forKey: .date))
        case "span":
            let start = try container.decodeDate(forKey: .start)
            let end = try container.decodeNil(forKey: .end) ? nil : try container.decodeDate(forKey: .end)
            let span = TodoDate.timeSpan(.start(.from(start), end.map { .to($0) } ?? .unknown))
            self = try container.validating(.end) { () throws(TodoError) in try span.validated() }
        case "duration":
            let start = try container.decodeDate(forKey: .start)
            let amount = try container.decode(Int.self, forKey: .amount)
            let unit = try container.decodeTag(forKey: .unit, allowed: TimeSpan.Unit.allCases.map(\.rawValue))
            let span = TodoDate.timeSpan(.duration(.from(start), for: amount, TimeSpan.Unit(rawValue: unit) ?? .days))
            self = try container.validating(.amount) { () throws(TodoError) in try span.validated() }
        default:
            self = .unknown
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
