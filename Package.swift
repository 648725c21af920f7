// swift-tools-version:6.1
import Foundation
import PackageDescription

/// `RESPONDER_FUZZ=1` (scripts/fuzz, in its own scratch path) instruments the modules the intake fuzzer covers for
/// libFuzzer and adds the fuzzer executable; the ordinary build has neither.
let fuzzBuild = ProcessInfo.processInfo.environment["RESPONDER_FUZZ"] != nil
let fuzzing: [SwiftSetting] = fuzzBuild ? [.unsafeFlags(["-sanitize=fuzzer"])] : []

let package = Package(
    name: "responder",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "NotificationEvents", targets: ["NotificationEvents"]),
        .library(name: "AMQP", targets: ["AMQP"]),
        .library(name: "ResponderWorker", targets: ["ResponderWorker"]),
        .library(name: "ResponderIntake", targets: ["ResponderIntake"]),
        .library(name: "Responder", targets: ["Responder"]),
        .library(name: "ResponderTesting", targets: ["ResponderTesting"]),
        .library(name: "ResponderWorkerTesting", targets: ["ResponderWorkerTesting"]),
        .library(name: "ResponderSQLite", targets: ["ResponderSQLite"]),
        .library(name: "ResponderPostgres", targets: ["ResponderPostgres"]),
        .library(name: "RedGreenExample", targets: ["RedGreenExample"]),
        .library(name: "ResponderCommands", targets: ["ResponderCommands"]),
        .executable(name: "responder", targets: ["ResponderTool"]),
    ],
    // What a team's worker may leave out, each with the packages only it needs: a worker on SQLite that depends on
    // ResponderCommands with `traits: []` compiles neither PostgreSQL's nor OpenTelemetry's stack (see
    // Benchmarks/results/build-weight.md). `responder` and this package's own build have both.
    traits: [
        .trait(
            name: "PostgreSQL",
            description:
                "The PostgreSQL state store (ResponderPostgres, on postgres-nio) for `--state postgres://…`."),
        .trait(
            name: "OpenTelemetry",
            description:
                "OTLP/HTTP export of `run`'s traces (swift-otel and its HTTP stack), asked for by OTEL_* variables."),
        .default(enabledTraits: ["PostgreSQL", "OpenTelemetry"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // `swift package generate-documentation` for the DocC catalogs (scripts/test builds them).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        // OTLP over HTTP only: the gRPC exporter's packages would more than double the cold build.
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // librabbitmq (rabbitmq-c 0.11) as Debian's librabbitmq-dev installs it.
        .systemLibrary(
            name: "CRabbitMQ",
            pkgConfig: "librabbitmq",
            providers: [.apt(["librabbitmq-dev"])]
        ),
        // Wrappers for what Swift cannot call: librabbitmq's variadic login and the socket send 0.11 does not export,
        // and glibc's pthread_setname_np (a GNU extension Glibc's module omits), which names the client's threads.
        .target(name: "CRabbitMQShim", dependencies: ["CRabbitMQ"]),
        // glibc's malloc.h, which Glibc's module map omits: `responder run` sets its heap thresholds with mallopt().
        .systemLibrary(name: "CMalloc"),
        // A message's properties and AMQP's field tables as plain Swift values, without the wire: what the client
        // reads and writes, and what the layers above it can share without linking librabbitmq.
        .target(name: "Messaging", swiftSettings: fuzzing),
        .testTarget(name: "MessagingTests", dependencies: ["Messaging"]),
        // The Swift AMQP client: I/O threads that each carry one or more connections, async API. The only importer of
        // the librabbitmq modules.
        .target(
            name: "AMQP",
            dependencies: ["Messaging", "CRabbitMQ", "CRabbitMQShim", .product(name: "Logging", package: "swift-log")],
            swiftSettings: fuzzing
        ),
        .testTarget(name: "AMQPTests", dependencies: ["AMQP", "CRabbitMQ"]),

        .target(name: "NotificationEvents", swiftSettings: fuzzing),
        // The agreement corpus and its Python judge are read in place through #filePath, not bundled.
        .testTarget(
            name: "NotificationEventsTests", dependencies: ["NotificationEvents"], exclude: ["Corpus", "validate.py"]),

        // The handler registry, the state store's protocol, the in-memory store and the pipeline; transport-agnostic
        // (never imports AMQP) and database-agnostic (links neither GRDB nor postgres-nio: the stores are targets of
        // their own, so handler libraries and their tests build neither).
        .target(
            name: "Responder",
            dependencies: [
                "Messaging",
                "NotificationEvents",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: fuzzing
        ),
        // The store conformance suite runs every StateStore, SQLite's and PostgreSQL's included (POSTGRES_URL),
        // through the same tests; the stores' own tests are ResponderSQLiteTests and ResponderPostgresTests.
        .testTarget(
            name: "ResponderTests",
            dependencies: [
                "Responder",
                "ResponderSQLite",
                "ResponderPostgres",
                "NotificationEvents",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // To hold another connection's write lock open, which GRDB refuses to do.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                "BrokerHarness", "PipelineHarness", "StoreHarness",
            ]
        ),

        // What a team tests its handlers with: the pipeline in memory, responses built in Swift, typed outputs.
        // It needs Responder alone, so a handler library's tests build none of the worker's dependencies.
        .target(
            name: "ResponderTesting",
            dependencies: ["Responder", "NotificationEvents", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "ResponderTestingTests",
            dependencies: [
                "ResponderTesting", "RedGreenExample", "Responder", "NotificationEvents", "BrokerHarness",
                "WorkerHarness",
            ]
        ),

        // The state store in a SQLite file (GRDB), shareable by the processes of one host: every worker's store.
        .target(
            name: "ResponderSQLite",
            dependencies: [
                "Responder",
                "NotificationEvents",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C interface, for the state store's statements per event (GRDB's own product).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The SQLite store's own behaviour: its file, group commits and loads, checkpoints, prepared statements.
        .testTarget(
            name: "ResponderSQLiteTests",
            dependencies: [
                "ResponderSQLite", "Responder", "NotificationEvents", "PipelineHarness", "StoreHarness",
                // Waiting for a condition.
                "BrokerHarness",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // To hold another connection's write lock open, which GRDB refuses to do.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),

        // The state store on a PostgreSQL server, for a fleet of workers; kept out of Responder so that a worker on
        // SQLite does not link postgres-nio's stack (the PostgreSQL trait).
        .target(
            name: "ResponderPostgres",
            dependencies: [
                "Responder",
                "NotificationEvents",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The PostgreSQL store against the server scripts/postgres runs (POSTGRES_URL): its pool, TLS, schema check,
        // failures and rolling deploys.
        .testTarget(
            name: "ResponderPostgresTests",
            dependencies: [
                "ResponderPostgres", "Responder", "NotificationEvents", "PipelineHarness", "StoreHarness",
                // FaultyProxy: the man in the middle of the TLS tests.
                "BrokerHarness",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
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
                "ResponderSQLite",
                "NotificationEvents",
                "BrokerHarness", "WorkerHarness",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // What the worker does to a delivery without a broker: mapping AMQP to the pipeline's messages, failure
        // routing and dead letters, the topology's names. Kept free of the HTTP and lifecycle packages, so the
        // intake fuzzer builds quickly.
        .target(
            name: "ResponderIntake",
            dependencies: [
                "AMQP", "Responder", "NotificationEvents", .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: fuzzing),
        // The intake without a broker: failure routing, dead-letter origin and policies, the
        // topology's plan, and the fuzzer's regression inputs. It links neither the worker nor its HTTP stack.
        .testTarget(
            name: "ResponderIntakeTests",
            dependencies: ["ResponderIntake", "Responder", "NotificationEvents", "AMQP", "IntakeFuzzing"]
        ),

        // The broker side: the pipeline on RabbitMQ, topology, the `run` service, metrics and health.
        .target(
            name: "ResponderWorker",
            dependencies: [
                "ResponderIntake",
                "AMQP",
                "Responder",
                "NotificationEvents",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),

        // Test support in layers, so that a room's tests link only what they test. Suites that need the broker
        // are named `…BrokerTests`; `…Tests` need none (the PostgreSQL store's cases read POSTGRES_URL).
        // The broker alone, on the AMQP client: the test broker and its control (rabbitmqctl, forced closes),
        // throwaway nodes, child processes, a faulty proxy, queue counts, waiting for a condition, free ports.
        .target(name: "BrokerHarness", dependencies: ["AMQP"], path: "Tests/BrokerHarness"),
        // The pipeline without a broker, on Responder alone: event builders, test handlers and their registry, log
        // capture, outcome inspection. What the core's suites share with the stores' and the worker's.
        .target(
            name: "PipelineHarness",
            dependencies: ["Responder", "NotificationEvents", .product(name: "Logging", package: "swift-log")],
            path: "Tests/PipelineHarness"
        ),
        // The stores' test support: a folder per test that stops what its stores run, and the PostgreSQL server the
        // tests share (POSTGRES_URL), a fresh schema each.
        .target(
            name: "StoreHarness",
            dependencies: [
                "Responder", "ResponderPostgres", "PipelineHarness", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/StoreHarness"
        ),
        // The worker on top of both (re-exporting the pipeline's harness): a topology per test, `responder run` as a
        // child process, probes of the queues, RedGreen's taps, and the paths to fixtures and the executable.
        .target(
            name: "WorkerHarness",
            dependencies: [
                "BrokerHarness", "PipelineHarness", "AMQP", "NotificationEvents", "Responder", "ResponderIntake",
                "ResponderWorker", "ResponderWorkerTesting", "RedGreenExample", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/WorkerHarness"
        ),
        .testTarget(name: "AMQPBrokerTests", dependencies: ["AMQP", "BrokerHarness"]),
        // The worker against the broker: `responder run` and in-process workers on a topology of each test's own.
        .testTarget(
            name: "ResponderWorkerBrokerTests",
            dependencies: [
                "ResponderWorker", "ResponderIntake", "Responder", "ResponderSQLite", "NotificationEvents", "AMQP",
                "BrokerHarness",
                "WorkerHarness", "RedGreenExample",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["cloudevents_sdk.py"]
        ),
        // The worker's logic without a broker: acknowledgement tracking, backoff, shards and their leases, prefetch
        // shares, publish limits, latency buckets.
        .testTarget(
            name: "ResponderWorkerTests",
            dependencies: [
                "ResponderWorker", "ResponderIntake", "Responder", "NotificationEvents", "AMQP", "BrokerHarness",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),

        // The testing harness against a real broker: a team's handlers in a worker in the test process, responses
        // through RabbitMQ, the same typed answers as ResponderTesting's. A product of its own, so a handler
        // library that tests without a broker builds none of the worker's dependencies.
        .target(
            name: "ResponderWorkerTesting",
            dependencies: [
                "ResponderTesting", "ResponderWorker", "ResponderIntake", "Responder", "NotificationEvents", "AMQP",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "ResponderWorkerTestingBrokerTests",
            dependencies: [
                "ResponderWorkerTesting", "ResponderTesting", "RedGreenExample", "Responder", "NotificationEvents",
                "AMQP", "BrokerHarness",
            ]
        ),

        // Every `responder` command as a library: a package of your own hands over its handler registration and
        // gets the whole command line (see Examples/CustomHandlers).
        .target(
            name: "ResponderCommands",
            dependencies: [
                "AMQP",
                "CMalloc",
                "NotificationEvents",
                "Responder",
                "ResponderIntake",
                "ResponderWorker",
                "ResponderSQLite",
                .target(name: "ResponderPostgres", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OTel", package: "swift-otel", condition: .when(traits: ["OpenTelemetry"])),
            ]
        ),
        // The `responder` executable: the commands with the RedGreen sample registered.
        .executableTarget(name: "ResponderTool", dependencies: ["ResponderCommands", "RedGreenExample"]),
        // `responder` with a handler that schedules follow-ups, for ReliabilityTests to kill around them.
        .executableTarget(
            name: "FollowUpResponder", dependencies: ["ResponderCommands", "Responder", "NotificationEvents"],
            path: "Tests/FollowUpResponderHarness"),

        // The `responder` commands without a broker: option resolution in-process, replay, help and setting
        // errors as child processes, and the deployment files (Dockerfile, image, manifests, README's tables).
        .testTarget(
            name: "ResponderToolTests",
            dependencies: [
                "ResponderCommands", "ResponderIntake", "ResponderWorker", "ResponderSQLite", "ResponderPostgres",
                "Responder",
                "RedGreenExample", "CMalloc",
                "NotificationEvents", "AMQP", "BrokerHarness", "WorkerHarness",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["asyncapi_check.py"]
        ),
        // The `responder` commands against the broker: publish, record, redrive, topology, health, the demo, and
        // the Grafana dashboard's queries against a running worker's /metrics.
        .testTarget(
            name: "ResponderToolBrokerTests",
            dependencies: [
                "AMQP", "NotificationEvents", "Responder", "ResponderIntake", "ResponderWorker", "BrokerHarness",
                "WorkerHarness",
            ]
        ),
        // Crash consistency at every step, hostile input, several workers and broker faults, against the broker.
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "BrokerHarness", "WorkerHarness",
                "AMQP",
                "NotificationEvents",
                "Responder",
                "ResponderSQLite",
                "ResponderPostgres",
                "ResponderIntake",
                "ResponderWorker",
                "RedGreenExample",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The intake under libFuzzer (scripts/fuzz): IntakeFuzzing runs one input and is built and replayed by the unit
// tests too (its regression inputs); the fuzzer executable exists only in the fuzz build.
package.targets.append(
    .target(
        name: "IntakeFuzzing",
        dependencies: [
            "AMQP", "NotificationEvents", "Responder", "ResponderIntake", "RedGreenExample",
            .product(name: "Logging", package: "swift-log"),
        ],
        path: "Tests/Fuzz/IntakeFuzzing",
        swiftSettings: fuzzing
    ))
if fuzzBuild {
    package.targets.append(
        .executableTarget(
            name: "intake-fuzzer",
            dependencies: ["IntakeFuzzing", "NotificationEvents", "Responder"],
            path: "Tests/Fuzz/Fuzzer",
            swiftSettings: fuzzing + [.unsafeFlags(["-parse-as-library"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer"])]
        ))
}
