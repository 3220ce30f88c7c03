// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Rewind",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Rewind", targets: ["Rewind"]),
        .library(name: "Calculator", targets: ["Calculator"]),
        .library(name: "Todos", targets: ["Todos"]),
        .executable(name: "rewind", targets: ["RewindCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
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
        // The command-line tool `rewind`.
        .executableTarget(
            name: "RewindCLI",
            dependencies: [
                "Rewind",
                "Calculator",
                "Todos",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "RewindTests", dependencies: ["Rewind"]),
        .testTarget(name: "CalculatorTests", dependencies: ["Calculator"]),
        .testTarget(name: "TodosTests", dependencies: ["Todos"]),
        .testTarget(name: "RewindCLITests", dependencies: ["RewindCLI"]),
    ],
    swiftLanguageModes: [.v6]
)
