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
}
