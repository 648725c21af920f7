// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "responder",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "NotificationEvents", targets: ["NotificationEvents"]),
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

        .target(name: "NotificationEvents"),
        // The agreement corpus and its Python judge are read in place through #filePath, not bundled.
        .testTarget(
            name: "NotificationEventsTests", dependencies: ["NotificationEvents"], exclude: ["Corpus", "validate.py"]),
    ],
    swiftLanguageModes: [.v6]
)
