// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "responder",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "NotificationEvents", targets: ["NotificationEvents"]),
        .library(name: "AMQP", targets: ["AMQP"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
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
        // The Swift AMQP client: one I/O thread per connection, async API. The only importer of the C modules.
        .target(
            name: "AMQP",
            dependencies: ["CRabbitMQ", "CRabbitMQShim", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "AMQPTests", dependencies: ["AMQP", "CRabbitMQ"]),
        .testTarget(name: "AMQPIntegrationTests", dependencies: ["AMQP"]),

        .target(name: "NotificationEvents"),
        .testTarget(name: "NotificationEventsTests", dependencies: ["NotificationEvents"]),
    ],
    swiftLanguageModes: [.v6]
)
