import BenchmarkSupport
import Foundation
import Todos
import TodoStore

// A plain process around the SQLite store for profilers (valgrind
// --tool=callgrind, perf record), which the benchmark harness gets in the way
// of. Not a benchmark: it prints wall-clock times only as a sanity check.
//
//     StoreProfile build FILE COUNT   add COUNT items, one change each (COUNT steps)
//     StoreProfile open FILE          open the store and read its state once
//     StoreProfile touch FILE         open it with its items on demand (as the
//                                     CLI does) and read the history's position
//     StoreProfile unchecked FILE     the same, then read every item (an open
//                                     without SQLite's quick_check of every page)
//     StoreProfile commits FILE COUNT add COUNT more items, one commit each

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: StoreProfile build FILE COUNT | open FILE | touch FILE | unchecked FILE | commits FILE COUNT\n".utf8))
    exit(2)
}

func elapsed(since start: ContinuousClock.Instant) -> String {
    let duration = ContinuousClock.now - start
    return "\(duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000) ms"
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else { usage() }
let url = URL(fileURLWithPath: arguments[1])
let count = arguments.count > 2 ? Int(arguments[2]) : nil

do {
    let start = ContinuousClock.now
    switch (arguments[0], count) {
    case ("build", let count?), ("commits", let count?):
        let store = try SQLiteStore(url: url, pollInterval: nil)
        let first = try store.read { $0.todos.count }
        let start = ContinuousClock.now
        for number in first..<(first + count) {
            try store.change([.add(try Fixture.item(number))], named: nil)
        }
        print("\(arguments[0]): \(count) commits in \(elapsed(since: start))")
    case ("open", nil):
        let store = try SQLiteStore(url: url, pollInterval: nil)
        let items = try store.state().todos.count
        let opened = elapsed(since: start)
        let steps = try store.history().steps.count
        print("open: \(items) items in \(opened); with the names of \(steps) steps in \(elapsed(since: start))")
    case ("touch", nil):
        let store = try SQLiteStore(url: url, pollInterval: nil, items: .onDemand)
        let opened = elapsed(since: start)
        let position = try store.history().position
        print("touch: opened in \(opened); at step \(position) of the history after \(elapsed(since: start))")
    case ("unchecked", nil):
        let store = try SQLiteStore(url: url, pollInterval: nil, items: .onDemand)
        let items = try store.state().todos.count
        print("unchecked: \(items) items in \(elapsed(since: start))")
    default:
        usage()
    }
} catch {
    FileHandle.standardError.write(Data("StoreProfile: \(error)\n".utf8))
    exit(1)
}
