// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Rewind",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Rewind", targets: ["Rewind"]),
        .library(name: "Calculator", targets: ["Calculator"]),
        .library(name: "Todos", targets: ["Todos"]),
        .library(name: "TodoStore", targets: ["TodoStore"]),
        .library(name: "WebApp", targets: ["WebApp"]),
        .executable(name: "rewind", targets: ["RewindCLI"]),
    ],
    dependencies: [
        // `swift package generate-documentation --target Rewind` (a build-time plugin only).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        // The engine: commands and undo histories. Foundation only.
        .target(name: "Rewind"),
        // The calculator domain: keys, commands, button configuration, session. No I/O.
        .target(
            name: "Calculator",
            dependencies: ["Rewind"],
            resources: [.copy("Resources/ButtonConfiguration.json")]
        ),
        // The to-do domain: items, lists, change DSL, use cases, features. No I/O.
        .target(name: "Todos", dependencies: ["Rewind"]),
        // Persistence of the to-do app: memory, JSON file, SQLite (GRDB).
        .target(
            name: "TodoStore",
            dependencies: ["Rewind", "Todos", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The web app of `rewind serve`: Hummingbird routes, JSON API, HTML components, assets.
        .target(
            name: "WebApp",
            dependencies: ["Rewind", "Calculator", "Todos", .product(name: "Hummingbird", package: "hummingbird")]
        ),
        // The command-line tool `rewind`.
        .executableTarget(
            name: "RewindCLI",
            dependencies: [
                "Rewind",
                "Calculator",
                "Todos",
                "TodoStore",
                "WebApp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "RewindTests", dependencies: ["Rewind"]),
        .testTarget(name: "CalculatorTests", dependencies: ["Calculator"]),
        .testTarget(name: "TodosTests", dependencies: ["Todos"]),
        // A second process for the store tests (kill -9, several processes).
        .executableTarget(name: "StoreProbe", dependencies: ["Todos", "TodoStore"]),
        .testTarget(
            name: "TodoStoreTests",
            dependencies: ["TodoStore", "StoreProbe", .product(name: "GRDB", package: "GRDB.swift")],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "RewindCLITests", dependencies: ["RewindCLI"]),
        .testTarget(
            name: "WebAppTests",
            dependencies: [
                "WebApp", "Todos", "Calculator",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
