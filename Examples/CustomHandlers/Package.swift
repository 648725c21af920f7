// swift-tools-version:6.0
// A minimal package of your own handlers on the Responder library: one category, an extension, an app delegate,
// and an executable that replays a fixture through them offline. `swift build` here uses its own .build folder.
import PackageDescription

let package = Package(
    name: "CustomHandlers",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "chat-replay", targets: ["ChatReplay"])
    ],
    dependencies: [
        // The responder repository two levels up (in your own package, its git URL). Named, because a path
        // dependency is otherwise known by its folder's name, which depends on where the repository was cloned.
        .package(name: "responder", path: "../.."),
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
        // Replays a fixture through the handlers with the in-memory store and prints the outputs.
        .executableTarget(
            name: "ChatReplay",
            dependencies: [
                "ChatHandlers",
                .product(name: "Responder", package: "responder"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
