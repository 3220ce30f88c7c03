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
