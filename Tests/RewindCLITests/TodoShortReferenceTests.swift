import Foundation
import Testing
import Todos
@testable import RewindCLI

@Suite("Short references")
struct TodoShortReferenceTests {
    func list(_ ids: [UUID]) throws -> TodoList {
        try TodoList(items: ids.enumerated().map { index, id in
            try TodoItem(id: id, title: "Item \(index)", created: Date(timeIntervalSince1970: 1_800_000_000))
        })
    }

    @Test func idsThatShareTheirFirstEightDigitsGetTheShortestUniqueReferences() async throws {
        // Sequential ids share 28 hex digits; random ones share none.
        let sequential = (1...2_000).map { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012X", $0 * 7))! }
        let random = (0..<50).map { _ in UUID() }
        let references = ShortReferences(list: try list(sequential + random))
        let hexes = (sequential + random).map { $0.uuidString.replacingOccurrences(of: "-", with: "").lowercased() }
        for (id, hex) in zip(sequential + random, hexes) {
            let reference = references(id)
            #expect(hex.hasPrefix(reference), "\(reference) is the start of \(hex)")
            #expect(reference.count >= ShortReferences.length)
            let others = hexes.filter { $0 != hex && $0.hasPrefix(reference) }
            #expect(others.isEmpty, "\(reference) names only \(hex)")
            if reference.count > ShortReferences.length {
                // One digit shorter would be ambiguous.
                let shorter = String(reference.dropLast())
                #expect(hexes.filter { $0.hasPrefix(shorter) }.count > 1)
            }
        }
        #expect(random.allSatisfy { references($0).count == ShortReferences.length })
    }

    @Test func referencesFromTheNeighboursInAnIndexAreThoseOfTheWholeList() async throws {
        let sequential = (1...300).map { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012X", $0 * 13))! }
        let ids = sequential + (0..<30).map { _ in UUID() }
        let whole = ShortReferences(list: try list(ids))
        let sorted = ids.sorted { $0.uuidString < $1.uuidString }
        let fromIndex = ShortReferences(ids: ids) { id in
            let position = sorted.firstIndex(of: id) ?? 0
            return (position > 0 ? sorted[position - 1] : nil, position + 1 < sorted.count ? sorted[position + 1] : nil)
        }
        for id in ids { #expect(fromIndex(id) == whole(id)) }
        #expect(ids.contains { fromIndex($0).count > ShortReferences.length }, "some references are longer than 8 digits")
    }

    @Test func digitsWithALeadingZeroAreAnIDsStartAndANumberOfALongListingIsTheNumber() throws {
        let first = try #require(UUID(uuidString: "AAAAAAAA-0000-0000-0000-000000000001"))
        let second = try #require(UUID(uuidString: "00012345-0000-0000-0000-000000000002"))
        let references = ItemReferences(index: SortedItemIDs([first, second])) { [first, second] }
        #expect(try references.resolve(["1"]) == [first])
        #expect(try references.resolve(["00012"]) == [second])
        #expect(try references.resolve(["aaaa"]) == [first])
        #expect(try references.resolve(["0001"]) == [second], "a leading zero: the start of an id")

        // 1,500 items listed, item n's id starting with the digits of 1501 − n (item 456's with
        // 1045): `rm $(seq 1 1500)` names them by number.
        let ids = try (1...1_500).map { n in
            let digits = String(1_501 - n)
            return try #require(UUID(uuidString: digits + String(repeating: "0", count: 8 - digits.count) + String(format: "-0000-0000-0000-%012d", n)))
        }
        let listed = ItemReferences(index: SortedItemIDs(ids)) { ids }
        #expect(try listed.resolve((1...1_500).map(String.init)) == ids)
    }

}
