// swift-tools-version: 6.1
import PackageDescription

// The benchmarks of Rewind, in a package of their own so that the main build
// never pays for the benchmark framework or Hummingbird's bare peer.
//
//     swift package --package-path Benchmarks benchmark
//
// Benchmark targets live in `Benchmarks/<Name>/`, where the benchmark plugin
// looks for them. `BareServer` is the peer of `rewind serve` for `server.sh`.
let package = Package(
    name: "RewindBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Rewind", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    ],
    targets: [
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Rewind", package: "Rewind"),
                .product(name: "Todos", package: "Rewind"),
            ],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "CalculatorBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Calculator", package: "Rewind"),
            ],
            path: "Benchmarks/CalculatorBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Rewind", package: "Rewind"),
                .product(name: "Todos", package: "Rewind"),
                .product(name: "TodoStore", package: "Rewind"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/StoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Deterministic to-do fixtures and memory readings shared by the benchmarks.
        .target(
            name: "BenchmarkSupport",
            dependencies: ["CMallocStats", .product(name: "Todos", package: "Rewind")],
            path: "Sources/BenchmarkSupport"
        ),
        .target(name: "CMallocStats", path: "Sources/CMallocStats"),
        // A plain process around the SQLite store, for profilers.
        .executableTarget(
            name: "StoreProfile",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Todos", package: "Rewind"),
                .product(name: "TodoStore", package: "Rewind"),
            ],
            path: "Sources/StoreProfile"
        ),
        // A bare Hummingbird route: what a server on this machine can do at best.
        .executableTarget(
            name: "BareServer",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            path: "Sources/BareServer"
        ),
    ],
    swiftLanguageModes: [.v6]
)
