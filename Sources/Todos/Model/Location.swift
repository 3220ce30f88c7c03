import Foundation

/// Where an item is to be done: unknown, an address, a coordinate, or
/// directions as a list of steps.
///
/// ```swift
/// let location: Location = .address(.init(street: "1 Main St", city: "Springfield", zipCode: "12345", country: "US"))
/// let location: Location = .coordinate(.init(latitude: 53.92681, longitude: 9.09762))
/// let location: Location = .directions(.init(steps: ["leave through the main gate", "turn right"]))
/// ```
public enum Location: Equatable, Hashable, Sendable {
    /// No location.
    case unknown
    /// A postal address.
    case address(Address)
    /// A point on Earth.
    case coordinate(Coordinate)
    /// How to get there, step by step.
    case directions(Directions)

    /// A postal address; at least one field is not empty.
    public struct Address: Equatable, Hashable, Sendable {
        /// The street and house number.
        public let street: String
        /// The city.
        public let city: String
        /// The postal code.
        public let zipCode: String
        /// The country.
        public let country: String

        /// Creates an address; fields are trimmed when the location is validated.
        public init(street: String, city: String, zipCode: String, country: String) {
            self.street = street
            self.city = city
            self.zipCode = zipCode
            self.country = country
        }
    }

    /// A point on Earth in degrees: latitude in -90…90, longitude in -180…180.
    public struct Coordinate: Equatable, Hashable, Sendable {
        /// Degrees north (positive) or south (negative) of the equator.
        public let latitude: Double
        /// Degrees east (positive) or west (negative) of Greenwich.
        public let longitude: Double

        /// Creates a coordinate; its ranges are checked when the location is validated.
        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// How to get there: at least one step, none of them empty.
    public struct Directions: Equatable, Hashable, Sendable {
        /// The steps, in order.
        public let steps: [String]

        /// Creates directions; steps are trimmed when the location is validated.
        public init(steps: [String]) {
            self.steps = steps
        }
    }

    /// This location with its texts trimmed, after checking the coordinate's
    /// ranges and that an address or directions are not empty.
    ///
    /// - Throws: ``TodoError/latitudeOutOfRange(_:)``,
    ///   ``TodoError/longitudeOutOfRange(_:)``, ``TodoError/emptyAddress``,
    ///   ``TodoError/noDirections`` or ``TodoError/emptyDirectionStep(at:)``.
    public func validated() throws(TodoError) -> Location {
        switch self {
        case .unknown:
            return .unknown
        case .address(let address):
            let fields = [address.street, address.city, address.zipCode, address.country].map(\.trimmed)
            guard fields.contains(where: { !$0.isEmpty }) else { throw .emptyAddress }
            return .address(Address(street: fields[0], city: fields[1], zipCode: fields[2], country: fields[3]))
        case .coordinate(let coordinate):
            guard (-90.0...90.0).contains(coordinate.latitude) else { throw .latitudeOutOfRange(coordinate.latitude) }
            guard (-180.0...180.0).contains(coordinate.longitude) else {
                throw .longitudeOutOfRange(coordinate.longitude)
            }
            return self
        case .directions(let directions):
            guard !directions.steps.isEmpty else { throw .noDirections }
            let steps = directions.steps.map(\.trimmed)
            if let empty = steps.firstIndex(where: \.isEmpty) { throw .emptyDirectionStep(at: empty) }
            return .directions(Directions(steps: steps))
        }
    }
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
