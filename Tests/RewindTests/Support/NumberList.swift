import Foundation
import Rewind

/// A small reversible model for tests: a list of numbers changed by
/// insertions, removals and replacements, any of which fails when its index
/// is out of range.
struct NumberList: Reversible, Equatable {
    enum Change: Codable, Equatable, Sendable {
        case insert(Int, at: Int)
        case remove(at: Int)
        case replace(at: Int, with: Int)
    }

    struct OutOfRange: Error, Equatable {
        let index: Int
    }

    private(set) var numbers: [Int] = []

    init(_ numbers: [Int] = []) {
        self.numbers = numbers
    }

    mutating func apply(_ change: Change) throws -> Change {
        switch change {
        case .insert(let number, let index):
            guard (0...numbers.count).contains(index) else { throw OutOfRange(index: index) }
            numbers.insert(number, at: index)
            return .remove(at: index)
        case .remove(let index):
            guard numbers.indices.contains(index) else { throw OutOfRange(index: index) }
            return .insert(numbers.remove(at: index), at: index)
        case .replace(let index, let number):
            guard numbers.indices.contains(index) else { throw OutOfRange(index: index) }
            let old = numbers[index]
            numbers[index] = number
            return .replace(at: index, with: old)
        }
    }
}

/// A clock that tests move by hand.
final class TestClock: @unchecked Sendable {
    var date = Date(timeIntervalSinceReferenceDate: 800_000_000)

    func advance(by seconds: TimeInterval) {
        date += seconds
    }

    var now: () -> Date {
        { [unowned self] in self.date }
    }
}

/// A seeded random number generator (SplitMix64), so that randomized tests
/// repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
