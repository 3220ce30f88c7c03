import Benchmark
import BenchmarkSupport
import Foundation
import Todos

/// `TodoList.items(matching:)` over the whole list, one search per
/// iteration: a word no item has (every text read to its end), a word every
/// item has in another case, and a word with an accent, which Foundation's
/// comparison handles (the others compare ASCII bytes).
func searchBenchmarks(count: Int) {
    let searches = [("a word no item has", "zzzz"), ("a word every item has", "MILK"), ("an accented word", "mílk")]
    for (name, text) in searches {
        Benchmark("search \(name), \(Fixture.label(count)) items") { (benchmark: Benchmark, list: TodoList) in
            let search = try TodoSearch(text)
            benchmark.startMeasurement()
            blackHole(list.items(matching: search, now: Fixture.date).count)
        } setup: {
            try TodoList(items: Fixture.items(count: count))
        }
    }
}
