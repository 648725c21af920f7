import AMQP
import ArgumentParser
import Foundation
import Logging
import Metrics
import Prometheus
import Responder
import ResponderPostgres
import ResponderWorker
import ServiceLifecycle

/// `responder run`: the long-running worker.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Consume notification responses from RabbitMQ and publish action-set updates.",
        discussion: """
            Every setting is a flag or an environment variable; a flag wins over the variable. SIGTERM or SIGINT \
            stops consuming, finishes the inputs in hand, waits for their confirms, acks them and exits 0 within \
            the grace period; a second signal exits at once (unacknowledged inputs are redelivered).
            """)

    @OptionGroup(title: "Broker") var broker: BrokerOptions
    @OptionGroup(title: "Topology") var names: TopologyOptions
    @OptionGroup(title: "Handlers and state") var handlers: HandlerOptions

    @Option(help: "Unacknowledged inputs the broker may hand over at once. (env: RESPONDER_PREFETCH; default: 200)")
    var prefetch: UInt16?

    @Option(help: "Notifications handled at once. (env: RESPONDER_CONCURRENCY; default: 64)")
    var concurrency: Int?

    @Option(help: "Largest input body accepted, in bytes. (env: RESPONDER_MAX_BODY_SIZE; default: 262144)")
    var maxBodySize: Int?

    @Option(help: "Port of /metrics, /health/live and /health/ready. (env: RESPONDER_METRICS_PORT; default: 9090)")
    var metricsPort: Int?

    @Option(help: "Address the metrics port listens on. (env: RESPONDER_METRICS_HOST; default: 0.0.0.0)")
    var metricsHost: String?

    @Option(help: "Seconds a graceful shutdown may take. (env: RESPONDER_GRACE_PERIOD; default: 25)")
    var gracePeriod: Int?

    @Option(help: "This worker's id in dead-letter headers and logs. (env: RESPONDER_WORKER_ID; default: host-pid)")
    var workerID: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical. (env: RESPONDER_LOG_LEVEL; default: info)")
    var logLevel: Logger.Level?

    func run() async throws {
        let environment = EnvironmentFallback()
        let logger = bootstrapLogging(level: try environment.resolve(logLevel, "RESPONDER_LOG_LEVEL", default: .info))
        let metricsRegistry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metricsRegistry))

        var configuration = WorkerConfiguration(broker: try broker.configuration(environment))
        configuration.topology = try names.topology(environment)
        configuration.prefetch = try environment.resolve(prefetch, "RESPONDER_PREFETCH", default: configuration.prefetch)
        configuration.concurrency = try environment.resolve(
            concurrency, "RESPONDER_CONCURRENCY", default: configuration.concurrency)
        configuration.workerID = try environment.resolve(workerID, "RESPONDER_WORKER_ID", default: configuration.workerID)
        configuration.broker.connectionName = "responder \(configuration.workerID)"
        guard configuration.prefetch > 0, configuration.concurrency > 0 else {
            throw ValidationError("prefetch and concurrency must be positive")
        }

        var pipelineConfiguration = PipelineConfiguration()
        pipelineConfiguration.outputExchange = configuration.topology.outputExchange
        pipelineConfiguration.maxBodySize = try environment.resolve(
            maxBodySize, "RESPONDER_MAX_BODY_SIZE", default: pipelineConfiguration.maxBodySize)
        pipelineConfiguration.stepReached = try FaultInjection.stepCallback(environment.environment)
        let state = try await handlers.openStore(environment, logger: logger)
        let store = state.store
        let pipeline = ResponsePipeline(
            registry: try handlers.makeRegistry(environment), store: store, configuration: pipelineConfiguration,
            logger: logger)

        let readiness = Readiness()
        let worker = ResponderService(
            configuration: configuration, pipeline: pipeline, readiness: readiness, logger: logger)
        let http = ObservabilityServer.application(
            host: try environment.resolve(metricsHost, "RESPONDER_METRICS_HOST", default: "0.0.0.0"),
            port: try environment.resolve(metricsPort, "RESPONDER_METRICS_PORT", default: 9090),
            registry: metricsRegistry, readiness: readiness, logger: logger)

        // A graceful shutdown stops the services last to first: the store's (PostgreSQL's pool) after the worker.
        var group = ServiceGroupConfiguration(
            services: (state.service.map { [ServiceGroupConfiguration.ServiceConfiguration(service: $0)] } ?? []) + [
                .init(service: worker, successTerminationBehavior: .gracefullyShutdownGroup),
                .init(service: http),
                .init(service: InboxPruning(store: store, logger: logger)),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        group.maximumGracefulShutdownDuration = Duration.seconds(
            try environment.resolve(gracePeriod, "RESPONDER_GRACE_PERIOD", default: 25))
        SecondSignal.exitAtOnce()
        logger.info(
            "starting",
            metadata: [
                "broker": "\(configuration.broker)", "worker-id": "\(configuration.workerID)",
                "prefetch": "\(configuration.prefetch)", "concurrency": "\(configuration.concurrency)",
            ])
        try await ServiceGroup(configuration: group).run()
        try state.close()
        logger.info("stopped")
    }
}

/// Prunes the state store's inbox in the background for as long as the worker runs.
private struct InboxPruning: Service {
    let store: any StateStore
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown { await store.runPruning(logger: logger) }
    }
}
