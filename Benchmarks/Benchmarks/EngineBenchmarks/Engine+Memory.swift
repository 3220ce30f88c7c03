import Benchmark
import BenchmarkSupport
import Foundation
import Rewind
import Todos

/// Bytes a history retains per step, measured two ways (see BENCHMARKS.md).
enum MemoryMetric {
    /// From glibc's `mallinfo2` before and after, allocator overhead included.
    static let bytesPerStep = BenchmarkMetric.custom("retained bytes/step (mallinfo2)", useScalingFactor: false)
    /// The whole history's retained bytes, as `mallinfo2` sees them.
    static let retained = BenchmarkMetric.custom("retained bytes, 1,000 steps (mallinfo2)", useScalingFactor: false)
}

/// How many edits each memory benchmark records.
private let editCount = 1_000

/// The edit number `k` (1...editCount): complete an item, a different one
/// each time, spread over the whole list.
private func edit(_ k: Int, ids: [UUID]) -> AppState.Change {
    .update(ids[k &* 7919 % ids.count], [.complete], at: Fixture.date.addingTimeInterval(Double(k)))
}

/// Measures `edits` and reports what they retain: the framework's counters
/// cover exactly `edits`, and `mallinfo2` is read just before and after.
private func measureRetained(_ benchmark: Benchmark, _ edits: () throws -> Void) rethrows {
    benchmark.startMeasurement()
    let before = allocatedBytes()
    try edits()
    let retained = allocatedBytes() - before
    benchmark.stopMeasurement()
    benchmark.measurement(MemoryMetric.retained, retained)
    benchmark.measurement(MemoryMetric.bytesPerStep, retained / editCount)
}

/// Memory of the history after 1,000 edits of different items: ours, a
/// `History<AppState>` of inverse changes, against a plain
/// `ValueHistory<AppState>` of whole snapshots, one per edit.
///
/// One iteration builds a history over the list made in setup and records
/// edit 0 before the measurement starts, so that the one copy of the list
/// that the first change makes (the list is shared with setup) is not
/// counted. The measurement covers edits 1...1,000 and stops while the
/// history is still alive: `memoryLeakedBytes` (requested bytes not freed)
/// and the `mallinfo2` difference are what the 1,000 steps retain.
func memoryBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .memoryLeakedBytes, MemoryMetric.bytesPerStep, MemoryMetric.retained],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(3),
        maxIterations: 20
    )

    for count in Fixture.sizes {
        Benchmark("memory: History, 1,000 edits, \(Fixture.label(count)) items", configuration: configuration) {
            (benchmark: Benchmark, state: AppState) in
            let ids = Array(state.todos.ids)
            let history = History(state, now: { Fixture.date })
            try history.perform(edit(0, ids: ids), named: history.model.stepName(for: edit(0, ids: ids)))
            try measureRetained(benchmark) {
                for k in 1...editCount {
                    let change = edit(k, ids: ids)
                    try history.perform(change, named: history.model.stepName(for: change))
                }
            }
            blackHole(history)
        } setup: {
            try Fixture.state(count: count)
        }
    }

    // Whole snapshots at 1,000 and 10,000 items (at 100,000 it would
    // need about 30 GB).
    for count in Fixture.sizes.prefix(2) {
        let snapshotConfiguration = Benchmark.Configuration(
            metrics: configuration.metrics,
            timeUnits: .milliseconds,
            warmupIterations: 0,
            maxDuration: .seconds(10),
            maxIterations: count > 1_000 ? 3 : 20
        )
        Benchmark(
            "memory: snapshots (seed), 1,000 edits, \(Fixture.label(count)) items",
            configuration: snapshotConfiguration
        ) { (benchmark: Benchmark, base: AppState) in
            let ids = Array(base.todos.ids)
            var state = base
            var snapshots = ValueHistory(state)
            let first = edit(0, ids: ids)
            let firstName = state.stepName(for: first)
            _ = try state.apply(first)
            snapshots.add(state, named: firstName)
            try measureRetained(benchmark) {
                for k in 1...editCount {
                    let change = edit(k, ids: ids)
                    let name = state.stepName(for: change)
                    _ = try state.apply(change)
                    snapshots.add(state, named: name)
                }
            }
            blackHole(snapshots)
        } setup: {
            try Fixture.state(count: count)
        }
    }
}
