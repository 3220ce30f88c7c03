import Foundation
import Todos

/// Deterministic to-do data for the benchmarks: the same ids, titles and
/// dates on every run, so that runs compare.
public enum Fixture {
    /// The list sizes the engine benchmarks run at.
    public static let sizes = [1_000, 10_000, 100_000]

    /// A fixed moment: 2026-01-01T00:00:00Z.
    public static let date = Date(timeIntervalSince1970: 1_767_225_600)

    /// The id of item number `number`: its bytes are the number's, so ids
    /// are distinct and repeat from run to run.
    public static func id(_ number: Int) -> UUID {
        let n = UInt64(truncatingIfNeeded: number)
        func byte(_ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: n >> shift) }
        return UUID(uuid: (
            0x52, 0x57, 0x4E, 0x44, 0, 0, 0x40, 0, 0x80, 0,
            byte(40), byte(32), byte(24), byte(16), byte(8), byte(0)
        ))
    }

    /// Item number `number`: a title of about 20 characters, a due date on
    /// every third item, created a second after the one before.
    public static func item(_ number: Int) throws -> TodoItem {
        let created = date.addingTimeInterval(Double(number))
        return try TodoItem(
            id: id(number),
            title: "Item \(number): buy milk",
            due: number % 3 == 0 ? .date(created.addingTimeInterval(86_400)) : .unknown,
            created: created
        )
    }

    /// Items number `0..<count`.
    public static func items(count: Int, from first: Int = 0) throws -> [TodoItem] {
        try (first..<(first + count)).map(item)
    }

    /// An app state holding items number `0..<count`.
    public static func state(count: Int) throws -> AppState {
        AppState(todos: try TodoList(items: items(count: count)))
    }

    /// `count` as the benchmarks name it: "1k", "10k", "100k".
    public static func label(_ count: Int) -> String {
        count >= 1_000 && count % 1_000 == 0 ? "\(count / 1_000)k" : "\(count)"
    }
}
