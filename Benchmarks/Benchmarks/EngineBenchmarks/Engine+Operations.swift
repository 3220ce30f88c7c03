import Benchmark
import BenchmarkSupport
import Foundation
import Rewind
import Todos

/// Perform-and-record of one change through `History<AppState>`: add an item
/// at the end, rename an item anywhere in the list, remove an item anywhere.
func performBenchmarks(count: Int) {
    let size = Fixture.label(count)

    Benchmark("perform add, \(size) items") { (benchmark: Benchmark, scenario: Scenario) in
        try scenario.record(.add(scenario.spare))
        benchmark.stopMeasurement()
        try scenario.record(.remove(scenario.spare.id))
    } setup: {
        try Scenario(count: count)
    }

    Benchmark("perform update, \(size) items") { (benchmark: Benchmark, scenario: Scenario) in
        let change = scenario.rename(at: scenario.nextPosition())
        benchmark.startMeasurement()
        try scenario.record(change)
    } setup: {
        try Scenario(count: count)
    }

    Benchmark("perform remove, \(size) items") { (benchmark: Benchmark, scenario: Scenario) in
        let id = scenario.ids[scenario.nextPosition()]
        benchmark.startMeasurement()
        try scenario.record(.remove(id))
        benchmark.stopMeasurement()
        try scenario.history.undo()
    } setup: {
        try Scenario(count: count)
    }
}

/// Undo and redo of one step of each kind. The step is made in setup; each
/// iteration crosses it once in the measured direction and once back.
func undoRedoBenchmarks(count: Int) {
    let size = Fixture.label(count)
    let kinds: [(name: String, change: (Scenario) -> AppState.Change)] = [
        ("add", { .add($0.spare) }),
        ("update", { $0.rename(at: $0.count / 2) }),
        ("remove", { .remove($0.ids[$0.count / 2]) }),
    ]
    for kind in kinds {
        Benchmark("undo \(kind.name), \(size) items") { (benchmark: Benchmark, scenario: Scenario) in
            try scenario.history.undo()
            benchmark.stopMeasurement()
            try scenario.history.redo()
        } setup: {
            let scenario = try Scenario(count: count)
            try scenario.record(kind.change(scenario))
            return scenario
        }

        Benchmark("redo \(kind.name), \(size) items") { (benchmark: Benchmark, scenario: Scenario) in
            try scenario.history.redo()
            benchmark.stopMeasurement()
            try scenario.history.undo()
        } setup: {
            let scenario = try Scenario(count: count)
            try scenario.record(kind.change(scenario))
            try scenario.history.undo()
            return scenario
        }
    }
}

/// `jump(to:)` across 1,000 steps (renames of 1,000 different items), back
/// to the start and forward to the end by turns.
func jumpBenchmark(count: Int) {
    Benchmark(
        "jump 1,000 steps, \(Fixture.label(count)) items",
        configuration: .init(timeUnits: .microseconds, maxIterations: 10_000)
    ) { (_: Benchmark, scenario: Scenario) in
        let history = scenario.history
        try history.jump(to: history.position == 0 ? history.stepCount : 0)
    } setup: {
        let scenario = try Scenario(count: count)
        for _ in 0..<1_000 {
            try scenario.record(scenario.rename(at: scenario.nextPosition()))
        }
        return scenario
    }
}

/// The same rename through `StoreCore.change`, the work the in-memory store
/// does for the app's use cases: step name, history, journal events.
func storeBenchmark(count: Int) {
    Benchmark("StoreCore change (update), \(Fixture.label(count)) items") { (benchmark: Benchmark, scenario: Scenario) in
        let change = scenario.rename(at: scenario.nextPosition())
        benchmark.startMeasurement()
        try scenario.store.change([change], named: nil)
    } setup: {
        try Scenario(count: count)
    }
}
