import Foundation
import TestSupport
import Testing
@testable import Todos

/// The order of a list's ids, checked against a plain array that does the
/// same changes, and against its own bookkeeping after every change.
@Suite("OrderedIDs")
struct OrderedIDsTests {
    static func id(_ n: Int) -> UUID {
        let value = UInt64(n)
        return UUID(uuid: (
            0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0,
            UInt8(truncatingIfNeeded: value >> 40), UInt8(truncatingIfNeeded: value >> 32),
            UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
            UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)
        ))
    }

    static func make(_ numbers: some Sequence<Int>, chunkCapacity: Int = 4) -> OrderedIDs {
        var ids = OrderedIDs(chunkCapacity: chunkCapacity)
        for n in numbers { ids.append(id(n)) }
        return ids
    }

    /// What is wrong with the bookkeeping of `ids`, if anything: chunks not
    /// empty and not over capacity, no two small neighbours, every id's
    /// chunk number and every chunk's index and count right.
    static func problems(_ ids: OrderedIDs) -> [String] {
        var problems: [String] = []
        var seen = 0
        var numbers = Set<Int>()
        for (index, chunk) in ids._chunks.enumerated() {
            if chunk.ids.isEmpty { problems.append("chunk \(index) is empty") }
            if chunk.ids.count > ids._chunkCapacity { problems.append("chunk \(index) holds \(chunk.ids.count)") }
            if index > 0, chunk.ids.count <= ids._chunkCapacity / 4,
               ids._chunks[index - 1].ids.count <= ids._chunkCapacity / 4 {
                problems.append("chunks \(index - 1) and \(index) are both small")
            }
            if !numbers.insert(chunk.number).inserted { problems.append("number \(chunk.number) used twice") }
            if ids._chunkIndices[chunk.number] != index { problems.append("chunk \(index) is indexed wrongly") }
            if ids._counts.start(of: index) != seen { problems.append("chunk \(index) starts at \(ids._counts.start(of: index))") }
            for id in chunk.ids where ids._chunkNumbers[id] != chunk.number {
                problems.append("\(id) is in chunk \(index), not in number \(String(describing: ids._chunkNumbers[id]))")
            }
            seen += chunk.ids.count
        }
        if seen != ids.count { problems.append("\(seen) ids in chunks, count \(ids.count)") }
        if ids._counts.chunkCount != ids._chunks.count { problems.append("counts of \(ids._counts.chunkCount) chunks") }
        let free = Set(ids._freeNumbers)
        for (number, index) in ids._chunkIndices.enumerated() where index == -1 && !free.contains(number) {
            problems.append("number \(number) is lost")
        }
        return problems
    }

    /// Checks everything that can be asked of `ids` against `model`.
    static func expectSame(_ ids: OrderedIDs, _ model: [UUID], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(problems(ids) == [], sourceLocation: sourceLocation)
        #expect(Array(ids) == model, sourceLocation: sourceLocation)
        #expect(ids.count == model.count, sourceLocation: sourceLocation)
        for (position, id) in model.enumerated() {
            guard ids.position(of: id) == position, ids.id(at: position) == id, ids[position] == id else {
                Issue.record("\(id) is not at \(position)", sourceLocation: sourceLocation)
                return
            }
        }
    }

    @Suite("an empty sequence")
    struct Empty {
        @Test func hasNoIDsAndNoPositions() {
            let ids = OrderedIDs()
            #expect(ids.isEmpty)
            #expect(ids.count == 0)
            #expect(Array(ids) == [])
            #expect(ids.position(of: OrderedIDsTests.id(1)) == nil)
            #expect(ids.id(at: 0) == nil)
            #expect(ids.id(at: -1) == nil)
            #expect(!ids.contains(OrderedIDsTests.id(1)))
        }

        @Test func refusesRemovalsMovesAndInsertionsOutOfRange() {
            var ids = OrderedIDs()
            do { let result = ids.remove(OrderedIDsTests.id(1)); #expect(result == nil) }
            do { let result = ids.move(OrderedIDsTests.id(1), to: 0); #expect(result == nil) }
            do { let result = ids.insert(OrderedIDsTests.id(1), at: 1); #expect(!result) }
            do { let result = ids.insert(OrderedIDsTests.id(1), at: -1); #expect(!result) }
            do { let result = ids.remove([OrderedIDsTests.id(1)]); #expect(result.isEmpty) }
            #expect(ids == OrderedIDs())
            #expect(OrderedIDsTests.problems(ids) == [])
        }

        @Test func takesAFirstIDAndBecomesEmptyAgain() {
            var ids = OrderedIDs(chunkCapacity: 4)
            do { let result = ids.insert(OrderedIDsTests.id(1), at: 0); #expect(result) }
            OrderedIDsTests.expectSame(ids, [OrderedIDsTests.id(1)])
            do { let result = ids.remove(OrderedIDsTests.id(1)); #expect(result == 0) }
            OrderedIDsTests.expectSame(ids, [])
            #expect(ids._chunks.isEmpty)
            #expect(ids == OrderedIDs())
        }
    }

    @Test func insertsAtTheFrontAndTheEndAcrossChunks() {
        var ids = OrderedIDs(chunkCapacity: 4)
        var model: [UUID] = []
        for n in 0..<20 {
            if n.isMultiple(of: 2) {
                do { let result = ids.insert(Self.id(n), at: 0); #expect(result) }
                model.insert(Self.id(n), at: 0)
            } else {
                do { let result = ids.insert(Self.id(n), at: ids.count); #expect(result) }
                model.append(Self.id(n))
            }
            Self.expectSame(ids, model)
        }
        #expect(ids._chunks.count >= 5)
        #expect(ids.id(at: 0) == Self.id(18))
        #expect(ids.id(at: 19) == Self.id(19))
        #expect(ids.id(at: 20) == nil)
    }

    @Test func refusesADuplicateIDOrAPositionOutOfRangeAndChangesNothing() {
        var ids = Self.make(0..<10)
        let before = ids
        do { let result = ids.insert(Self.id(3), at: 0); #expect(!result) }
        do { let result = ids.insert(Self.id(99), at: 11); #expect(!result) }
        do { let result = ids.insert(Self.id(99), at: -1); #expect(!result) }
        do { let result = ids.move(Self.id(3), to: 10); #expect(result == nil) }
        do { let result = ids.move(Self.id(3), to: -1); #expect(result == nil) }
        do { let result = ids.move(Self.id(99), to: 0); #expect(result == nil) }
        do { let result = ids.remove(Self.id(99)); #expect(result == nil) }
        #expect(ids == before)
        Self.expectSame(ids, (0..<10).map(Self.id))
    }

    @Test func splitsAFullChunkInTheMiddleAndKeepsTheOrder() {
        var ids = Self.make(0..<4)
        #expect(ids._chunks.map(\.ids.count) == [4])
        do { let result = ids.insert(Self.id(10), at: 1); #expect(result) }
        #expect(ids._chunks.count == 2)
        Self.expectSame(ids, [0, 10, 1, 2, 3].map(Self.id))
        do { let result = ids.insert(Self.id(11), at: 4); #expect(result) }
        Self.expectSame(ids, [0, 10, 1, 2, 11, 3].map(Self.id))
    }

    @Test func startsAChunkOfItsOwnBeforeOrAfterAFullOne() {
        var ids = Self.make(0..<4)
        do { let result = ids.insert(Self.id(10), at: 4); #expect(result) }
        #expect(ids._chunks.map(\.ids.count) == [4, 1])
        do { let result = ids.insert(Self.id(11), at: 0); #expect(result) }
        #expect(ids._chunks.map(\.ids.count) == [1, 4, 1])
        // Between the first two chunks, the first one has room.
        do { let result = ids.insert(Self.id(12), at: 1); #expect(result) }
        #expect(ids._chunks.map(\.ids.count) == [2, 4, 1])
        Self.expectSame(ids, [11, 12, 0, 1, 2, 3, 10].map(Self.id))
    }

    @Test func mergesAChunkThatShrinksIntoItsNeighbour() {
        var ids = Self.make(0..<11, chunkCapacity: 8)
        #expect(ids._chunks.map(\.ids.count) == [8, 3])
        for n in 0..<6 { do { let result = ids.remove(Self.id(n)); #expect(result == 0) } }
        // 2 and 3 ids would fill more than half a chunk of 8: no merge yet.
        #expect(ids._chunks.map(\.ids.count) == [2, 3])
        do { let result = ids.remove(Self.id(6)); #expect(result == 0) }
        // 1 and 3 fill half a chunk: one chunk is left.
        #expect(ids._chunks.map(\.ids.count) == [4])
        Self.expectSame(ids, (7..<11).map(Self.id))
        let freed = ids._freeNumbers
        #expect(freed.count == 1)
        for n in 20..<25 { ids.append(Self.id(n)) }
        #expect(ids._chunks.map(\.ids.count) == [8, 1])
        #expect(ids._chunks[1].number == freed[0], "a freed number is used again")
    }

    @Test func removesManyIDsAtOnceWithTheirFormerPositions() {
        var ids = Self.make(0..<40)
        let doomed = Set([0, 1, 2, 3, 5, 17, 18, 19, 20, 39, 99].map(Self.id))
        let removed = ids.remove(doomed)
        #expect(removed.map(\.id) == [0, 1, 2, 3, 5, 17, 18, 19, 20, 39].map(Self.id))
        #expect(removed.map(\.position) == [0, 1, 2, 3, 5, 17, 18, 19, 20, 39])
        Self.expectSame(ids, (0..<40).filter { !doomed.contains(Self.id($0)) }.map(Self.id))
        do { let result = ids.remove(Set((0..<40).map(Self.id))); #expect(result.count == 30) }
        Self.expectSame(ids, [])
    }

    @Test func equalsAnotherWithTheSameIDsInTheSameOrderHoweverCut() {
        var cutByInsertions = OrderedIDs(chunkCapacity: 4)
        for n in (0..<30).reversed() { cutByInsertions.insert(Self.id(n), at: 0) }
        let appended = Self.make(0..<30)
        #expect(cutByInsertions._chunks.map(\.ids.count) != appended._chunks.map(\.ids.count))
        #expect(cutByInsertions == appended)
        #expect(cutByInsertions.hashValue == appended.hashValue)
        #expect(appended == Self.make(0..<30, chunkCapacity: 512))

        var reordered = appended
        reordered.move(Self.id(0), to: 1)
        #expect(reordered != appended)
        var shorter = appended
        shorter.remove(Self.id(29))
        #expect(shorter != appended)
        #expect(Set([cutByInsertions, appended, reordered]).count == 2)
    }

    @Test func aCopyChangesIndependentlyOfItsOriginal() {
        let original = Self.make(0..<50)
        var copy = original
        copy.remove(Self.id(10))
        copy.insert(Self.id(100), at: 3)
        copy.move(Self.id(49), to: 0)
        Self.expectSame(original, (0..<50).map(Self.id))
        #expect(copy.count == 50)
        #expect(copy.position(of: Self.id(49)) == 0)
        #expect(original.position(of: Self.id(49)) == 49)
    }

    @Test func collectionAlgorithmsAgreeWithTheArray() {
        let numbers = Array(0..<1_300)
        let ids = Self.make(numbers, chunkCapacity: 512)
        let model = numbers.map(Self.id)
        #expect(ids.map { $0 } == model)
        #expect(Array(ids.reversed()) == Array(model.reversed()))
        #expect(ids.firstIndex(of: Self.id(700)) == 700)
        #expect(ids.lastIndex(of: Self.id(700)) == 700)
        #expect(ids.firstIndex(of: Self.id(5_000)) == nil)
        #expect(ids.contains(Self.id(1_299)))
        #expect(!ids.contains(Self.id(1_300)))
        #expect(Array(ids[600..<605]) == Array(model[600..<605]))
        #expect(ids.enumerated().allSatisfy { $0.element == model[$0.offset] })
    }

    /// Thousands of random insertions, removals, moves and bulk removals,
    /// each checked against an array doing the same.
    @Test("random changes keep the order and positions of an array",
          arguments: [(1, 4), (2, 5), (3, 8), (42, 16), (7, 512)] as [(UInt64, Int)])
    func randomChanges(seed: UInt64, chunkCapacity: Int) {
        var rng = SeededGenerator(seed: seed)
        var ids = OrderedIDs(chunkCapacity: chunkCapacity)
        var model: [UUID] = []
        var next = 0
        for step in 0..<4_000 {
            // Grow for a while, then shrink, then grow again: chunks split and merge.
            let growing = (step / 1_000).isMultiple(of: 2)
            let roll = Int.random(in: 0..<100, using: &rng)
            if roll < (growing ? 55 : 25) {
                next += 1
                let position = Int.random(in: 0...model.count, using: &rng)
                do { let result = ids.insert(Self.id(next), at: position); #expect(result) }
                model.insert(Self.id(next), at: position)
            } else if roll < 85, let victim = model.randomElement(using: &rng) {
                let position = model.firstIndex(of: victim)
                do { let result = ids.remove(victim); #expect(result == position) }
                model.removeAll { $0 == victim }
            } else if roll < 95, let mover = model.randomElement(using: &rng) {
                let target = Int.random(in: 0..<model.count, using: &rng)
                let position = model.firstIndex(of: mover)
                do { let result = ids.move(mover, to: target); #expect(result == position) }
                model.removeAll { $0 == mover }
                model.insert(mover, at: target)
            } else {
                let doomed = Set(model.shuffled(using: &rng).prefix(Int.random(in: 0...20, using: &rng)))
                let expected = model.enumerated().filter { doomed.contains($0.element) }
                let removed = ids.remove(doomed)
                #expect(removed.map(\.id) == expected.map(\.element))
                #expect(removed.map(\.position) == expected.map(\.offset))
                model.removeAll { doomed.contains($0) }
            }
            let problems = Self.problems(ids)
            guard problems.isEmpty, Array(ids) == model else {
                Issue.record("step \(step): \(problems), order equal: \(Array(ids) == model)")
                return
            }
            let probe = Int.random(in: 0..<(model.count + 1), using: &rng)
            #expect(ids.id(at: probe) == (probe < model.count ? model[probe] : nil))
            if probe < model.count { #expect(ids.position(of: model[probe]) == probe) }
        }
        Self.expectSame(ids, model)
    }

    @Test func aLongListKeepsFewChunks() {
        var ids = OrderedIDs()
        for n in 0..<20_000 { ids.append(Self.id(n)) }
        #expect(ids._chunks.count == 40)
        var rng = SeededGenerator(seed: 9)
        var model = (0..<20_000).map(Self.id)
        for _ in 0..<2_000 {
            let position = Int.random(in: 0..<model.count, using: &rng)
            do { let result = ids.remove(model[position]); #expect(result == position) }
            model.remove(at: position)
        }
        for n in 20_000..<24_000 {
            let position = Int.random(in: 0...model.count, using: &rng)
            ids.insert(Self.id(n), at: position)
            model.insert(Self.id(n), at: position)
        }
        Self.expectSame(ids, model)
        #expect(ids._chunks.count < 8 * model.count / 512 + 1)
    }
}
