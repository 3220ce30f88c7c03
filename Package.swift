// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Rewind",
    // macOS 15 for the standard library's `Mutex` (Synchronization).
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Rewind", targets: ["Rewind"]),
        .library(name: "Calculator", targets: ["Calculator"]),
        .library(name: "Todos", targets: ["Todos"]),
        .library(name: "TodoStore", targets: ["TodoStore"]),
        .library(name: "TodoStorePostgres", targets: ["TodoStorePostgres"]),
        .library(name: "WebApp", targets: ["WebApp"]),
        .executable(name: "rewind", targets: ["RewindCLI"]),
    ],
    dependencies: [
        // `swift package generate-documentation --target Rewind` (a build-time plugin only).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The PostgreSQL store (TodoStorePostgres): several server instances over one database.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Bcrypt (its HummingbirdBcrypt product only) for the accounts' password hashes.
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        // SHA-256 of the sign-in sessions' ids (the store keeps only the hash).
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        // Used directly by WebApp as well as through Hummingbird.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // The JSON API from Sources/WebApp/openapi.yaml: types and server protocol generated at build time.
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        // Reads openapi.yaml to serve it as JSON too (the generator uses it as well).
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // The engine: commands and undo histories. Foundation only.
        .target(name: "Rewind"),
        // Finds a module's resource bundle beside the program, with an error that says where it belongs.
        .target(name: "BundledResources"),
        // The calculator domain: keys, commands, button configuration, session. No I/O but its keypad file.
        .target(
            name: "Calculator",
            dependencies: ["Rewind", "BundledResources"],
            resources: [.copy("Resources/ButtonConfiguration.json")]
        ),
        // The to-do domain: items, lists, change DSL, use cases, features. No I/O.
        .target(name: "Todos", dependencies: ["Rewind"]),
        // Persistence of the to-do app: memory, JSON file, SQLite (GRDB);
        // the accounts of team mode, their password hashes (bcrypt) and sign-in sessions.
        .target(
            name: "TodoStore",
            dependencies: [
                "Rewind", "Todos", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Persistence of the to-do app in PostgreSQL (postgres-nio), for several
        // server instances over one database; kept apart so that the other
        // modules and their tests do not build postgres-nio.
        .target(
            name: "TodoStorePostgres",
            dependencies: [
                "Rewind", "Todos", "TodoStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The web app of `rewind serve`: Hummingbird routes, JSON API, HTML components, assets;
        // in team mode the sign-in against the accounts and sessions of TodoStore.
        .target(
            name: "WebApp",
            dependencies: [
                "Rewind", "Calculator", "Todos", "TodoStore", "BundledResources",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Yams", package: "Yams"),
            ],
            // The pages' scripts, stylesheet and icon, served under /assets/;
            // openapi.yaml (docs/openapi.yaml links to it): the generator
            // reads it, the server serves it.
            resources: [.copy("Resources/assets"), .copy("openapi.yaml")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // The command-line tool `rewind`.
        .executableTarget(
            name: "RewindCLI",
            dependencies: [
                "Rewind",
                "Calculator",
                "Todos",
                "TodoStore",
                "TodoStorePostgres",
                "WebApp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // What the tests share: a clock, ids, counters, a seeded generator, waiting.
        .target(name: "TestSupport", dependencies: [.product(name: "Logging", package: "swift-log")], path: "Tests/TestSupport"),
        .testTarget(name: "RewindTests", dependencies: ["Rewind", "TestSupport"]),
        .testTarget(name: "CalculatorTests", dependencies: ["Calculator", "Rewind", "TestSupport"]),
        .testTarget(name: "TodosTests", dependencies: ["Todos", "Rewind", "TestSupport"]),
        // A second process for the store tests (kill -9, several processes).
        .executableTarget(name: "StoreProbe", dependencies: ["Todos", "TodoStore"], path: "Tests/StoreProbe"),
        .testTarget(
            name: "TodoStoreTests",
            dependencies: [
                "TodoStore", "TodoStorePostgres", "Todos", "Rewind", "TestSupport", "StoreProbe",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "RewindCLITests",
            dependencies: [
                "RewindCLI", "Todos", "TestSupport",
                // Reads the accounts `rewind users` saved, and checks their hashes.
                "TodoStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "WebAppTests",
            dependencies: [
                "WebApp", "Todos", "Calculator", "Rewind", "TestSupport", "BundledResources",
                // The SQLite store, whose history tree has abandoned branches.
                "TodoStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
