// swift-tools-version:6.1
// `responder-bench`: micro-benchmarks of the shared pipeline and of replay, for profiling with perf and callgrind
// (scripts/bench measures the whole worker on a broker). A package of its own on the responder package, so the
// product is not shipped with the library; it builds in its own .build folder:
//
//     swift build -c release --package-path Benchmarks/Micro
//     Benchmarks/Micro/.build/release/responder-bench replay FIXTURE --state :memory: --repeat 3
import PackageDescription

let package = Package(
    name: "ResponderMicroBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "responder-bench", targets: ["ResponderBenchmark"])
    ],
    dependencies: [
        // Named, because a path dependency is otherwise known by its folder's name. Without traits, as
        // Examples/CustomHandlers: scripts/test builds both in one scratch folder, which then serves both.
        .package(name: "responder", path: "../..", traits: []),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "ResponderBenchmark",
            dependencies: [
                .product(name: "Responder", package: "responder"),
                .product(name: "ResponderSQLite", package: "responder"),
                .product(name: "RedGreenExample", package: "responder"),
                .product(name: "NotificationEvents", package: "responder"),
                .product(name: "Logging", package: "swift-log"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
