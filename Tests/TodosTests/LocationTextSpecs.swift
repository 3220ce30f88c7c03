import Foundation
import Testing
import Todos

@Suite("A location in words and on a map")
struct LocationTextSpecs {
    static let address = Location.address(.init(street: "Hauptstraße 1 & 2", city: "Springfield", zipCode: "12345", country: "DE"))

    @Test func aRowShowsAFewWordsAndTheDetailEveryField() {
        #expect(Self.address.summary == "Hauptstraße 1 & 2, Springfield")
        #expect(Self.address.fullText == "Hauptstraße 1 & 2, Springfield, 12345, DE")
        #expect(Location.address(.init(street: "", city: "", zipCode: "12345", country: "DE")).summary == "12345, DE")
        #expect(Location.coordinate(.init(latitude: -33.92, longitude: 18.42)).summary == "-33.92, 18.42")
        #expect(Location.coordinate(.init(latitude: 0.00001, longitude: -0.0000001)).summary == "0.00001, 0", "no exponent")
        #expect(Location.coordinate(.init(latitude: -1e-5, longitude: 180)).summary == "-0.00001, 180.0")
        let directions = Location.directions(.init(steps: ["Leave by the gate", "Turn right", "Up the hill"]))
        #expect(directions.summary == "Leave by the gate (+2 steps)")
        #expect(directions.fullText == "1. Leave by the gate\n2. Turn right\n3. Up the hill")
        #expect(Location.unknown.summary == "" && Location.unknown.fullText == "")
    }

    @Test func aCoordinateIsAPointOnTheMapWrittenWithoutAnExponent() {
        let url = Location.coordinate(.init(latitude: -33.92, longitude: 0.00001)).openStreetMapURL
        #expect(url?.absoluteString == "https://www.openstreetmap.org/?mlat=-33.920000&mlon=0.000010#map=17/-33.920000/0.000010")
    }

    @Test func anAddressIsASearchForAllOfItWithEveryOtherCharacterEscaped() throws {
        let url = try #require(Self.address.openStreetMapURL)
        #expect(url.absoluteString == "https://www.openstreetmap.org/search?query=Hauptstra%C3%9Fe%201%20%26%202%2C%20Springfield%2C%2012345%2C%20DE")
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first
        #expect(query?.value == Self.address.fullText, "the query reads back as the whole address")
    }

    @Test func directionsAndNoLocationHaveNoMap() {
        #expect(Location.directions(.init(steps: ["Left"])).openStreetMapURL == nil)
        #expect(Location.unknown.openStreetMapURL == nil)
    }
}
