import Foundation

/// `{"kind": "unknown"}`,
/// `{"kind": "address", "street": …, "city": …, "zipCode": …, "country": …}`,
/// `{"kind": "coordinate", "latitude": 53.9, "longitude": 9.1}`,
/// `{"kind": "directions", "steps": ["…", "…"]}`.
extension Location: Codable {
    private enum Key: String, CodingKey { case kind, street, city, zipCode, country, latitude, longitude, steps }
    private static let kinds = ["unknown", "address", "coordinate", "directions"]
    /// The fields of each kind.
    private static let fields = [
        "unknown": ["kind"], "address": ["kind", "street", "city", "zipCode", "country"],
        "coordinate": ["kind", "latitude", "longitude"], "directions": ["kind", "steps"],
    ]

    /// Reads a location in the documented shape and validates it; a field
    /// its kind does not have is refused, unless the document is a store's own.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let kind = try container.decodeTag(forKey: .kind, allowed: Self.kinds)
        try decoder.refuseUnknownFields(allowing: Self.fields[kind] ?? [])
        switch kind {
        case "address":
            func field(_ key: Key) throws -> String { try container.decodeIfPresent(String.self, forKey: key) ?? "" }
            let address = Location.address(Address(
                street: try field(.street), city: try field(.city),
                zipCode: try field(.zipCode), country: try field(.country)
            ))
            self = try container.validating(.street) { () throws(TodoError) in try address.validated() }
        case "coordinate":
            let latitude = try container.decode(Double.self, forKey: .latitude)
            let longitude = try container.decode(Double.self, forKey: .longitude)
            let coordinate = Location.coordinate(Coordinate(latitude: latitude, longitude: longitude))
            let key: Key = (-90.0...90.0).contains(latitude) ? .longitude : .latitude
            self = try container.validating(key) { () throws(TodoError) in try coordinate.validated() }
        case "directions":
            let directions = Location.directions(Directions(steps: try container.decode([String].self, forKey: .steps)))
            self = try container.validating(.steps) { () throws(TodoError) in try directions.validated() }
        default:
            self = .unknown
        }
    }

    /// Writes the location in the documented shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .unknown:
            try container.encode("unknown", forKey: .kind)
        case .address(let address):
            try container.encode("address", forKey: .kind)
            try container.encode(address.street, forKey: .street)
            try container.encode(address.city, forKey: .city)
            try container.encode(address.zipCode, forKey: .zipCode)
            try container.encode(address.country, forKey: .country)
        case .coordinate(let coordinate):
            try container.encode("coordinate", forKey: .kind)
            try container.encode(coordinate.latitude, forKey: .latitude)
            try container.encode(coordinate.longitude, forKey: .longitude)
        case .directions(let directions):
            try container.encode("directions", forKey: .kind)
            try container.encode(directions.steps, forKey: .steps)
        }
    }
}
