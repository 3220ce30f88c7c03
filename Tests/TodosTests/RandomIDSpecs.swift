import Foundation
import Testing

@testable import Todos

@Suite("UUID.random(): new ids of version 4")
struct RandomIDSpecs {
    @Test("every id is a version 4 id of RFC 9562's variant, and none repeats")
    func versionVariantAndUniqueness() {
        let ids = (0..<10_000).map { _ in UUID.random() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let text = id.uuidString
            #expect(Array(text)[14] == "4", "\(text)")
            #expect(["8", "9", "A", "B"].contains(Array(text)[19]), "\(text)")
        }
        // Every other bit varies: each of the 122 random bits is set in some id and clear in another.
        var set = [Bool](repeating: false, count: 128), clear = [Bool](repeating: false, count: 128)
        for id in ids {
            withUnsafeBytes(of: id.uuid) { bytes in
                for bit in 0..<128 {
                    if bytes[bit / 8] & (0x80 >> (bit % 8)) != 0 { set[bit] = true } else { clear[bit] = true }
                }
            }
        }
        let fixed = Set([48, 49, 50, 51, 64, 65])  // the version's four bits, the variant's two
        for bit in 0..<128 where !fixed.contains(bit) {
            #expect(set[bit] && clear[bit], "bit \(bit)")
        }
    }
}
