import Foundation
import TestSupport
import Testing
@testable import TodoStore

@Suite("SQLite store: item rows")
struct ItemRecordTests {
    @Test func idsReadFromTheirBytesEqualFoundationsReading() {
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<2_000 {
            let uuid = UUID(uuid: (
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator)))
            #expect(ItemRecord.uuid(uuid.uuidString) == uuid)
            #expect(ItemRecord.uuid(uuid.uuidString.lowercased()) == uuid)
        }
    }

    @Test(arguments: [
        "", "not a uuid", "6F1C2E0A-3B7D-4C1E-9A55-0D2B7C9E4F1", "6F1C2E0A-3B7D-4C1E-9A55-0D2B7C9E4F100",
        "6F1C2E0A_3B7D-4C1E-9A55-0D2B7C9E4F10", "6F1C2E0G-3B7D-4C1E-9A55-0D2B7C9E4F10", "6F1C2E0A3B7D-4C1E-9A55-0D2B7C9E4F10-",
    ])
    func anythingElseIsReadAsFoundationReadsIt(text: String) {
        #expect(ItemRecord.uuid(text) == UUID(uuidString: text))
    }
}
