import ArgumentParser
import Logging
import Metrics
import Prometheus
import Responder
import ResponderIntake
import ResponderWorker

/// `run`: the long-running worker.
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
    @OptionGroup(title: "Handlers and state") var handlers: HandlerOptions<StateOption>

    @Option(name: Settings.prefetch.name, help: Settings.prefetch.help) var prefetch: String?
    @Option(name: Settings.concurrency.name, help: Settings.concurrency.help) var concurrency: String?
    @OptionGroup(title: "Handler calls") var calls: HandlerCallOptions
    @Option(name: Settings.maxBodySize.name, help: Settings.maxBodySize.help) var maxBodySize: String?
    @Option(name: Settings.outputMode.name, help: Settings.outputMode.help) var outputMode: String?
    @Option(name: Settings.metricsPort.name, help: Settings.metricsPort.help) var metricsPort: String?
    @Option(name: Settings.metricsHost.name, help: Settings.metricsHost.help) var metricsHost: String?
    @Option(name: Settings.gracePeriod.name, help: Settings.gracePeriod.help) var gracePeriod: String?
    @Option(name: Settings.workerID.name, help: Settings.workerID.help) var workerID: String?
    @Option(name: Settings.logLevel.name, help: Settings.logLevel.help) var logLevel: String?

    /// The worker's settings from these options and the environment.
    func workerConfiguration(_ environment: EnvironmentFallback) throws(SettingError) -> WorkerConfiguration {
        var configuration = WorkerConfiguration(broker: try broker.configuration(environment))
        configuration.topology = try names.topology(environment)
        configuration.prefetch = UInt16(try Settings.prefetch.resolve(prefetch, environment))
        configuration.concurrency = try Settings.concurrency.resolve(concurrency, environment)
        configuration.workerID = try Settings.workerID.resolveOptional(workerID, environment) ?? configuration.workerID
        configuration.broker.connectionName = "responder \(configuration.workerID)"
        configuration.observability = ObservabilityAddress(
            host: try Settings.metricsHost.resolve(metricsHost, environment),
            port: try Settings.metricsPort.resolve(metricsPort, environment))
        configuration.gracePeriod = .seconds(try Settings.gracePeriod.resolve(gracePeriod, environment))
        return configuration
    }

    /// The pipeline's settings from these options and the environment.
    func pipelineConfiguration(_ environment: EnvironmentFallback) throws -> PipelineConfiguration {
        var configuration = PipelineConfiguration()
        configuration.maxBodySize = try Settings.maxBodySize.resolve(maxBodySize, environment)
        try calls.apply(to: &configuration, environment)
        configuration.outputMode = try Settings.outputMode.resolve(outputMode, environment)
        configuration.stepReached = try FaultInjection.stepCallback(environment.environment)
        return configuration
    }

    func run() async throws {
        let environment = EnvironmentFallback()
        let logger = bootstrapLogging(level: try Settings.logLevel.resolve(logLevel, environment))
        if !WorkerHeap.keepFreedMemory() { logger.warning("glibc refused the worker's heap thresholds") }
        let configuration = try workerConfiguration(environment)
        var pipeline = try pipelineConfiguration(environment)
        let tracing = try TracingBootstrap.backend(environment.environment, logger: logger)
        pipeline.tracer = tracing?.tracer
        let registry = try handlers.makeRegistry(environment, registration: Program.current.registration)
        let state = try await handlers.openStore(environment, logger: logger)
        let metrics = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory.responder(registry: metrics))
        let worker = Worker(
            registry: registry, store: state.store, storeService: state.service, tracingService: tracing?.service,
            configuration: configuration,
            pipeline: pipeline, metrics: metrics, logger: logger)
        try await worker.run()
        try state.close()
    }
}
