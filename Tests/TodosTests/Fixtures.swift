import Foundation
import Rewind
import Testing
@testable import Todos

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Fixtures.start) { current = start }

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func advance(by seconds: TimeInterval = 60) {
        lock.lock()
        current = current.addingTimeInterval(seconds)
        lock.unlock()
    }

    var function: @Sendable () -> Date { { [self] in now } }
}

/// Ids 1, 2, 3, … so that tests are deterministic.
final class IncrementingIDs: @unchecked Sendable {
    private let lock = NSLock()
    private var next: UInt8 = 0

    func make() -> UUID {
        lock.lock()
        defer { lock.unlock() }
        next &+= 1
        return Fixtures.id(next)
    }

    var function: @Sendable () -> UUID { { [self] in make() } }
}

/// A small deterministic random number generator (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum Fixtures {
    /// 2026-06-01T10:00:00Z, a Monday.
    static let start = Date(timeIntervalSince1970: 1_780_308_000)

    static func id(_ n: UInt8) -> UUID {
        UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, n))
    }

    static func item(_ title: String, _ n: UInt8, at date: Date = start) throws -> TodoItem {
        try TodoItem(id: id(n), title: title, created: date)
    }

    /// An item with every field set, so that "has same …" checks mean something.
    static func fullItem() throws -> TodoItem {
        try TodoItem(
            id: id(200), title: "Get Coffee", details: "Beans from the corner shop",
            due: .date(start.addingTimeInterval(3600)),
            location: .coordinate(.init(latitude: 53.92681, longitude: 9.09762)),
            created: start
        )
    }

    static func state(_ titles: [String]) throws -> AppState {
        AppState(todos: try TodoList(items: titles.enumerated().map { try item($1, UInt8($0 + 1)) }))
    }
}

/// The fields of an item, to check that a change touched only its own.
enum Field: String, CaseIterable, CustomTestStringConvertible {
    case id, title, details, state, due, location, created, changed

    func value(of item: TodoItem) -> AnyHashable {
        switch self {
        case .id: item.id
        case .title: item.title
        case .details: item.details
        case .state: item.state
        case .due: item.due
        case .location: item.location
        case .created: item.created
        case .changed: item.changed
        }
    }

    var testDescription: String { rawValue }

    static func others(than changed: Field...) -> [Field] {
        allCases.filter { !changed.contains($0) && $0 != .changed }
    }
}
