import AMQP
import Logging
import Responder
import ResponderWorker
import ServiceLifecycle
import WorkerHarness

/// A ``ResponderService`` running in the test process with handlers of the test's own, on the test broker, until
/// ``stop()`` shuts it down gracefully.
///
/// Nothing is bootstrapped: the logging and metrics systems are process-wide, so the service logs through a
/// logger that drops everything and its metrics go to swift-metrics' no-op backend.
final class InProcessWorker: Sendable {
    let workerID: String
    let readiness = Readiness()
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    /// A worker on `store` (in memory by default) that checks an unavailable store after `storeRetryBackoff`.
    init(
        topology: TestTopology, registry: HandlerRegistry, store: any StateStore = InMemoryStateStore(),
        storeRetryBackoff: Backoff = Backoff(initial: .seconds(1), maximum: .seconds(30))
    ) throws {
        let logger = Logger(label: "in-process-worker") { _ in SwiftLogNoOpLogHandler() }
        workerID = "\(topology.prefix)-in-process"
        var configuration = WorkerConfiguration(broker: try AMQPConfiguration(url: TestBroker.url ?? ""))
        configuration.topology = topology.topology
        configuration.workerID = workerID
        configuration.broker.connectionName = "responder \(workerID)"
        configuration.storeRetryBackoff = storeRetryBackoff
        var pipelineConfiguration = PipelineConfiguration()
        pipelineConfiguration.outputExchange = topology.topology.outputExchange
        let pipeline = ResponsePipeline(
            registry: registry, store: store, configuration: pipelineConfiguration, logger: logger)
        let service = ResponderService(
            configuration: configuration, pipeline: pipeline, readiness: readiness, logger: logger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [service], logger: logger))
        self.group = group
        running = Task { try await group.run() }
    }

    /// Waits until the service consumes.
    func waitUntilReady() async throws {
        try await waitFor("the in-process worker to consume") { self.readiness.isReady }
    }

    /// Shuts the service down gracefully and waits for it; rethrows what the service threw.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }
}
