import Foundation

extension Location {
    /// The location in a few words, as a list's row shows it: the street
    /// and city of an address (its postal code and country when both are
    /// empty), "53.92681, 9.09762", the first of several directions and how
    /// many follow ("Leave by the main gate (+2 steps)"), or "" for none.
    public var summary: String {
        switch self {
        case .unknown:
            return ""
        case .address(let address):
            let near = [address.street, address.city].filter { !$0.isEmpty }
            let far = [address.zipCode, address.country].filter { !$0.isEmpty }
            return (near.isEmpty ? far : near).joined(separator: ", ")
        case .coordinate(let coordinate):
            return Self.degrees(coordinate.latitude) + ", " + Self.degrees(coordinate.longitude)
        case .directions(let directions):
            let more = directions.steps.count - 1
            return (directions.steps.first ?? "") + (more > 0 ? " (+\(more) step\(more == 1 ? "" : "s"))" : "")
        }
    }

    /// Degrees as a person writes them: "53.93", "-33.92", "0.00001" (never
    /// "1e-05"), at most six decimals where the shortest form has an exponent.
    static func degrees(_ value: Double) -> String {
        let shortest = "\(value)"
        guard shortest.contains("e") else { return shortest }
        var fixed = String(format: "%.6f", value)
        while fixed.hasSuffix("0") { fixed.removeLast() }
        if fixed.hasSuffix(".") { fixed.removeLast() }
        return fixed == "-0" ? "0" : fixed
    }

    /// The location in full: every field of an address, the coordinate, or
    /// the directions numbered, one step a line.
    public var fullText: String {
        switch self {
        case .unknown, .coordinate:
            return summary
        case .address(let address):
            return [address.street, address.city, address.zipCode, address.country]
                .filter { !$0.isEmpty }.joined(separator: ", ")
        case .directions(let directions):
            return directions.steps.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n")
        }
    }
}

extension Location {
    /// Where OpenStreetMap shows the location: the point of a coordinate (at
    /// street level), a search for the whole of an address; `nil` for
    /// directions and for no location, which no map can find.
    public var openStreetMapURL: URL? {
        switch self {
        case .unknown, .directions:
            return nil
        case .coordinate(let coordinate):
            let latitude = String(format: "%.6f", coordinate.latitude)
            let longitude = String(format: "%.6f", coordinate.longitude)
            return URL(string: "https://www.openstreetmap.org/?mlat=\(latitude)&mlon=\(longitude)#map=17/\(latitude)/\(longitude)")
        case .address:
            // Everything but ASCII letters, digits and -._~ escaped (UTF-8):
            // a `+` or `&` in an address is part of it, not of the query's syntax.
            let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
            guard let query = fullText.addingPercentEncoding(withAllowedCharacters: unreserved) else { return nil }
            return URL(string: "https://www.openstreetmap.org/search?query=" + query)
        }
    }
}
