import BenchmarkSupport
import Foundation
import Rewind
import Todos

/// A history over a list of `count` items, and what the iterations of one
/// benchmark need to pick their changes.
final class Scenario {
    let history: History<AppState>
    let count: Int
    /// The ids in list order.
    let ids: [UUID]
    /// An item that is not in the list, to add.
    let spare: TodoItem
    private var turn = 0
    /// The synchronous core of the in-memory store over the same list, made
    /// on first use (the store itself is an actor around it).
    private(set) lazy var store = StoreCore(history.model, now: { Fixture.date })

    init(count: Int) throws {
        let state = try Fixture.state(count: count)
        history = History(state, now: { Fixture.date })
        self.count = count
        ids = Array(state.todos.ids)
        spare = try Fixture.item(count)
    }

    /// A position spread over the whole list, a different one each time
    /// (7919 is a prime, so the walk visits every position).
    func nextPosition() -> Int {
        turn += 1
        return turn &* 7919 % count
    }

    /// A title change of the item at `position`, alternating between two
    /// titles that are made once.
    func rename(at position: Int) -> AppState.Change {
        .update(ids[position], [.title(to: Scenario.titles[turn & 1])], at: Fixture.date)
    }

    /// Performs `change` as one step named the way the app names it.
    func record(_ change: AppState.Change) throws {
        try history.perform(change, named: history.model.stepName(for: change))
    }

    private static let titles = ["Renamed: buy oat milk", "Renamed: buy soy milk"]
}
