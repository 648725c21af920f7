// swift-tools-version:6.1
// A minimal package of your own handlers on the Responder library: one category, an extension, an app delegate,
// their tests (with the ResponderTesting product, and one through a broker with ResponderWorkerTesting), and
// `chat-responder`, a worker with every `responder` command and these handlers registered, its state in SQLite.
// `swift build` here uses its own .build folder.
import PackageDescription

let package = Package(
    name: "CustomHandlers",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "chat-responder", targets: ["ChatResponder"])
    ],
    dependencies: [
        // The responder repository two levels up (in your own package, its git URL). Named, because a path
        // dependency is otherwise known by its folder's name, which depends on where the repository was cloned.
        // `traits: []`: a worker on SQLite alone, which builds neither the PostgreSQL store nor OpenTelemetry
        // export, and so less than half of what the default traits build. For a fleet on PostgreSQL, or OTLP
        // traces, name the trait (`traits: ["PostgreSQL", "OpenTelemetry"]`) or leave `traits` out for both.
        .package(name: "responder", path: "../..", traits: []),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        // The handlers: what you would register in your own worker.
        .target(
            name: "ChatHandlers",
            dependencies: [
                .product(name: "Responder", package: "responder"),
                .product(name: "NotificationEvents", package: "responder"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The worker: `chat-responder run`, `replay`, `publish`, `record`, `watch` and the rest.
        .executableTarget(
            name: "ChatResponder",
            dependencies: ["ChatHandlers", .product(name: "ResponderCommands", package: "responder")]
        ),
        // The handlers' tests, with the testing product: no broker, none of the worker's dependencies.
        .testTarget(
            name: "ChatHandlersTests",
            dependencies: [
                "ChatHandlers",
                .product(name: "ResponderTesting", package: "responder"),
                .product(name: "Responder", package: "responder"),
                .product(name: "NotificationEvents", package: "responder"),
            ]
        ),
        // One test through a real broker (AMQP_URL), with the broker variant of the testing product.
        .testTarget(
            name: "ChatHandlersBrokerTests",
            dependencies: [
                "ChatHandlers",
                .product(name: "ResponderWorkerTesting", package: "responder"),
                .product(name: "ResponderTesting", package: "responder"),
                .product(name: "NotificationEvents", package: "responder"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
