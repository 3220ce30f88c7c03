import Foundation
import Rewind
import Testing
import TestSupport
@testable import Todos

enum Fixtures {
    /// 2026-06-01T10:00:00Z, a Monday.
    static let start = TestClock.start

    static func id(_ n: UInt8) -> UUID {
        IncrementingIDs.id(Int(n))
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
