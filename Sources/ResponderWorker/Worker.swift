import Logging
import Prometheus
import Responder
import ServiceLifecycle
import UnixSignals

/// A running worker assembled from a handler registry, a state store and a configuration: the pipeline, the
/// broker service, readiness, the metrics and health server, store pruning, and graceful shutdown on SIGTERM or
/// SIGINT (a second signal exits at once).
///
/// ```swift
/// var registry = HandlerRegistry()
/// try Chat.register(in: &registry)
/// let worker = Worker(
///     registry: registry, store: try SQLiteStateStore(path: "chat-state.sqlite"),
///     configuration: WorkerConfiguration(broker: try AMQPConfiguration(url: url)), logger: logger)
/// try await worker.run()
/// ```
///
/// The updates go to the topology's output exchange. The store is left open when ``run()`` returns: whoever
/// opened it closes it.
public final class Worker: Sendable {
    /// Whether the worker can take work now; what `/health/ready` answers.
    public let readiness = Readiness()
    private let configuration: WorkerConfiguration
    private let group: ServiceGroup
    private let logger: Logger

    /// A worker handling inputs with `registry`, keeping state in `store`, and serving `metrics` (the registry
    /// the process's metrics system reports to) at ``WorkerConfiguration/observability``. `storeService` is what
    /// the store needs running while it is used (PostgreSQL's connection pool), or nil. `tracingService` exports
    /// the spans of `PipelineConfiguration.tracer` (swift-otel's), or nil; it stops last, so a graceful shutdown
    /// exports the spans of the inputs the worker finishes.
    public init(
        registry: HandlerRegistry, store: any StateStore, storeService: (any Service)? = nil,
        tracingService: (any Service)? = nil,
        configuration: WorkerConfiguration,
        pipeline: PipelineConfiguration = PipelineConfiguration(),
        metrics: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), logger: Logger
    ) {
        var configuration = configuration
        configuration.topology.destinations = registry.destinations.values.sorted { $0.name < $1.name }
        self.configuration = configuration
        self.logger = logger
        var checked = pipeline
        // Outputs are checked before their commit, against the smallest frame any broker may negotiate (login may
        // only lower the frame size the connections propose), so an output that passed is never refused afterwards.
        if checked.publishability == nil {
            checked.checkPublishability(against: configuration.broker.publishLimits)
        }
        checked.followUpLadder = configuration.topology.followUpLadder
        let pipeline = ResponsePipeline(
            registry: registry, store: store, configuration: checked,
            outputExchange: configuration.topology.outputExchange, logger: logger)
        // A graceful shutdown stops the services last to first, each once the one after it has finished. So the
        // store's own service (PostgreSQL's connection pool) and the HTTP server come before the worker: the store
        // outlives the inputs the worker finishes, and /health/ready (503, shutting down) and /metrics answer
        // until they are finished, rather than refusing connections while the worker drains.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = tracingService.map { [.init(service: $0)] } ?? []
        services += storeService.map { [.init(service: $0)] } ?? []
        if let address = configuration.observability {
            services.append(
                .init(
                    service: ObservabilityServer.application(
                        host: address.host, port: address.port, registry: metrics, readiness: readiness,
                        logger: logger)))
        }
        services += [
            .init(
                service: ResponderService(
                    configuration: configuration, pipeline: pipeline, readiness: readiness, logger: logger),
                successTerminationBehavior: .gracefullyShutdownGroup),
            .init(service: StorePruning(store: store, logger: logger)),
        ]
        var group = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: configuration.handlesSignals ? [.sigterm, .sigint] : [],
            logger: logger)
        group.maximumGracefulShutdownDuration = configuration.gracePeriod
        self.group = ServiceGroup(configuration: group)
    }

    /// Runs until shut down (by a signal or ``shutDown()``) and the inputs in hand are finished, or until a
    /// service fails; rethrows that failure.
    public func run() async throws {
        let secondSignal = configuration.handlesSignals ? await SecondSignal.watch() : nil
        defer { secondSignal?.cancel() }
        logger.info(
            "starting",
            metadata: [
                "broker": "\(configuration.broker)", "worker-id": "\(configuration.workerID)",
                "prefetch": "\(configuration.prefetch)", "concurrency": "\(configuration.concurrency)",
            ])
        try await group.run()
        logger.info("stopped")
    }

    /// Starts a graceful shutdown: stop consuming, finish the inputs in hand, wait for their confirms and acks.
    public func shutDown() async {
        await group.triggerGracefulShutdown()
    }
}
