// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Rewind",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Rewind", targets: ["Rewind"]),
        .executable(name: "rewind", targets: ["RewindCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // The engine: commands and undo histories. Foundation only.
        .target(name: "Rewind"),
        // The command-line tool `rewind`.
        .executableTarget(
            name: "RewindCLI",
            dependencies: [
                "Rewind",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "RewindTests", dependencies: ["Rewind"]),
    ],
    swiftLanguageModes: [.v6]
)
