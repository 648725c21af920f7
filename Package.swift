// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "responder",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "NotificationEvents", targets: ["NotificationEvents"]),
        .library(name: "Responder", targets: ["Responder"]),
        .library(name: "RedGreenExample", targets: ["RedGreenExample"]),
        .executable(name: "responder", targets: ["ResponderTool"]),
        .executable(name: "responder-bench", targets: ["ResponderBenchmark"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        // librabbitmq (rabbitmq-c 0.11) as Debian's librabbitmq-dev installs it.
        .systemLibrary(
            name: "CRabbitMQ",
            pkgConfig: "librabbitmq",
            providers: [.apt(["librabbitmq-dev"])]
        ),
        // Non-variadic wrappers for the librabbitmq calls Swift cannot make; nothing else.
        .target(name: "CRabbitMQShim", dependencies: ["CRabbitMQ"]),

        .target(name: "NotificationEvents"),
        // The agreement corpus and its Python judge are read in place through #filePath, not bundled.
        .testTarget(
            name: "NotificationEventsTests", dependencies: ["NotificationEvents"], exclude: ["Corpus", "validate.py"]),

        // The handler registry, state store and pipeline; transport-agnostic (never imports AMQP).
        .target(
            name: "Responder",
            dependencies: [
                "NotificationEvents",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C interface, for the state store's statements per event (GRDB's own product).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "ResponderTests",
            dependencies: [
                "Responder",
                "NotificationEvents",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),

        // Apple's RedGreenNotifications sample as handlers; registered by default in `responder`.
        .target(
            name: "RedGreenExample",
            dependencies: ["Responder", "NotificationEvents", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "RedGreenExampleTests",
            dependencies: [
                "RedGreenExample",
                "Responder",
                "NotificationEvents",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .executableTarget(
            name: "ResponderTool",
            dependencies: [
                "Responder",
                "RedGreenExample",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Micro-benchmarks of the pipeline and replay, for profiling (scripts/bench measures the whole worker).
        .executableTarget(
            name: "ResponderBenchmark",
            dependencies: [
                "Responder",
                "RedGreenExample",
                "NotificationEvents",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
