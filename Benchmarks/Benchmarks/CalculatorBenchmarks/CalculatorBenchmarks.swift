import Benchmark
import Calculator

/// Key presses of a person working the calculator: numbers with decimals,
/// the four operations, equals, corrections and functions.
let keySequence = [
    "1", "2", "3", ".", "4", "5", "x", "6", "7", "=",
    "+", "8", "9", "⌫", "0", "=", "÷", "3", "=", "√",
    "±", "-", "4", ".", "2", "=", "x²", "C", "2", "%",
]

/// Presses `count` keys of ``keySequence`` in turn, from `start`.
func press(_ count: Int, on session: inout CalculatorSession, from start: Int = 0) throws {
    for index in start..<(start + count) {
        try session.press(keySequence[index % keySequence.count])
    }
}

// Key presses through `CalculatorSession` with its undo history on (every
// press is one undo step of the session's `ValueHistory`). 1,000 presses per
// iteration: throughput is presses per second.
let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .microseconds,
        scalingFactor: .kilo,
        maxDuration: .seconds(2)
    )

    Benchmark("calculator: 1,000 key presses, new session", configuration: configuration) { benchmark in
        var session = try CalculatorSession(configuration: .shipped())
        benchmark.startMeasurement()
        try press(benchmark.scaledIterations.count, on: &session)
        benchmark.stopMeasurement()
        blackHole(session)
    }

    // The same presses on a session that already holds 100,000 presses of
    // history, and keeps every press of the run on top of them.
    Benchmark(
        "calculator: 1,000 key presses, session with 100,000 presses of history",
        configuration: configuration
    ) { (benchmark: Benchmark, box: SessionBox) in
        try press(benchmark.scaledIterations.count, on: &box.session)
    } setup: {
        let box = try SessionBox()
        try press(100_000, on: &box.session)
        return box
    }

    // What the undo history retains after a session of 1,000 and of 10,000
    // presses: every step is a whole `Calculator`, tape included.
    for presses in [1_000, 10_000] {
        Benchmark(
            "calculator: history memory after \(presses / 1_000),000 presses",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal, .memoryLeakedBytes],
                timeUnits: .milliseconds,
                warmupIterations: 1,
                maxDuration: .seconds(2),
                maxIterations: 20
            )
        ) { benchmark in
            var session = try CalculatorSession(configuration: .shipped())
            benchmark.startMeasurement()
            try press(presses, on: &session)
            benchmark.stopMeasurement()
            blackHole(session)
        }
    }

    Benchmark("calculator: undo then redo 1,000 presses", configuration: configuration) { (benchmark: Benchmark, box: SessionBox) in
        for _ in benchmark.scaledIterations { box.session.undo() }
        for _ in benchmark.scaledIterations { box.session.redo() }
    } setup: {
        let box = try SessionBox()
        try press(10_000, on: &box.session)
        return box
    }
}

/// A session with the shipped keypad that the iterations of one benchmark share.
final class SessionBox {
    var session: CalculatorSession

    init() throws {
        session = try CalculatorSession(configuration: .shipped())
    }
}
