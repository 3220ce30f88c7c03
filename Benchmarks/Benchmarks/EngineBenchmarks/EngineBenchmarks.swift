import Benchmark
import BenchmarkSupport
import Foundation
import Rewind
import Todos

// The undo engine on to-do lists of 1,000, 10,000 and 100,000 items: one
// change, undo, redo or jump per iteration, so that the percentiles are those
// of single operations. The list is built once in each benchmark's setup;
// whatever an iteration must do to keep the list at its size (take the added
// item out again, put the removed one back) runs after `stopMeasurement()`.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 100,
        maxDuration: .seconds(1),
        maxIterations: 200_000
    )

    // What the framework itself costs an iteration that does nothing.
    Benchmark("Floor: empty iteration") { _ in
        blackHole(0)
    }

    for count in Fixture.sizes {
        performBenchmarks(count: count)
        undoRedoBenchmarks(count: count)
        jumpBenchmark(count: count)
        storeBenchmark(count: count)
        searchBenchmarks(count: count)
    }
    memoryBenchmarks()
    valueHistoryBenchmark()
}

/// A snapshot history at its limit, stepped back before each new value (a
/// calculator's undo, then a key): one iteration is an undo and an add.
/// Before the values out of reach were kept apart, every such add shifted
/// the whole history. The history lives in a box that the iterations share,
/// so that no iteration copies it.
func valueHistoryBenchmark() {
    final class Box: @unchecked Sendable {
        var history: ValueHistory<Int>
        var next: Int

        init(limit: Int) {
            history = ValueHistory(0, limit: limit)
            for value in 1...limit { history.add(value) }
            next = limit + 1
        }
    }
    Benchmark("ValueHistory: undo then add, at a limit of 200,000") { (benchmark: Benchmark, box: Box) in
        for _ in benchmark.scaledIterations {
            box.history.undo()
            box.next += 1
            box.history.add(box.next)
        }
        blackHole(box.history.count)
    } setup: {
        Box(limit: 200_000)
    }
}
