import Benchmark
import BenchmarkSupport
import Foundation
import GRDB
import Rewind
import Todos
import TodoStore

// The SQLite store against the practical limit of this disk, and its cold
// open. Every database is a file in a fresh temporary directory on the disk
// that holds the system's temporary directory (not a RAM disk here: check
// with `df` where you run it), removed in teardown.
let benchmarks: @Sendable () -> Void = {
    let commits = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .cpuTotal, .mallocCountTotal, .writeSyscalls],
        timeUnits: .microseconds,
        warmupIterations: 20,
        maxDuration: .seconds(3),
        maxIterations: 100_000
    )

    // One acknowledged change per iteration: `change` returns after the
    // commit (WAL, synchronous = FULL: the commit waits for the disk).
    Benchmark("SQLiteStore: commit one change (add)", configuration: commits) { (benchmark: Benchmark, fixture: StoreFixture) in
        let item = try fixture.nextItem()
        benchmark.startMeasurement()
        try fixture.store.change([.add(item)], named: nil)
    } setup: {
        try StoreFixture()
    } teardown: {
        TemporaryDirectory.removeAll()
    }

    // The peer: a plain GRDB insert of one row per transaction, with the
    // store's pragmas, into a table shaped like the store's item table.
    Benchmark("GRDB: insert one row per transaction (peer)", configuration: commits) { (benchmark: Benchmark, fixture: PlainFixture) in
        let (id, body) = try fixture.nextRow()
        benchmark.startMeasurement()
        try fixture.insert(id: id, body: body)
    } setup: {
        try PlainFixture()
    } teardown: {
        TemporaryDirectory.removeAll()
    }

    // Sustained rate: 1,000 commits per iteration, one change (one row) per
    // transaction, so that the disk's occasional long flushes count as they
    // do for a user. Throughput is commits per second.
    let sustained = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .cpuTotal, .writeSyscalls],
        timeUnits: .microseconds,
        warmupIterations: 1,
        scalingFactor: .kilo,
        maxDuration: .seconds(5),
        maxIterations: 50
    )

    Benchmark("SQLiteStore: 1,000 commits (add), sustained", configuration: sustained) {
        (benchmark: Benchmark, fixture: StoreFixture) in
        let items = try benchmark.scaledIterations.map { _ in try fixture.nextItem() }
        benchmark.startMeasurement()
        for item in items {
            try fixture.store.change([.add(item)], named: nil)
        }
    } setup: {
        try StoreFixture()
    } teardown: {
        TemporaryDirectory.removeAll()
    }

    Benchmark("GRDB: 1,000 one-row transactions (peer), sustained", configuration: sustained) {
        (benchmark: Benchmark, fixture: PlainFixture) in
        let rows = try benchmark.scaledIterations.map { _ in try fixture.nextRow() }
        benchmark.startMeasurement()
        for (id, body) in rows {
            try fixture.insert(id: id, body: body)
        }
    } setup: {
        try PlainFixture()
    } teardown: {
        TemporaryDirectory.removeAll()
    }

    // Open a store whose file holds 100,000 items and 100,000 history steps
    // (built once in setup) and read its state, as a process starting does.
    Benchmark(
        "SQLiteStore: cold open, 100k items + 100k steps",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, .peakMemoryResidentDelta],
            timeUnits: .milliseconds,
            warmupIterations: 1,
            maxDuration: .seconds(10),
            maxIterations: 20
        )
    ) { (benchmark: Benchmark, url: URL) in
        let store = try SQLiteStore(url: url, pollInterval: nil)
        let state = try store.state()
        benchmark.stopMeasurement()
        guard state.todos.count == ColdOpen.count, try store.history().steps.count == ColdOpen.count else {
            benchmark.error("the store holds \(state.todos.count) items, \(try store.history().steps.count) steps")
            return
        }
    } setup: {
        try ColdOpen.build()
    } teardown: {
        TemporaryDirectory.removeAll()
    }
}
