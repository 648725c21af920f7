import AMQP
import BrokerHarness
import Logging
import Responder
import ResponderWorker
import WorkerHarness

/// A ``Worker`` running in the test process with handlers of the test's own, on the test broker, until ``stop()``
/// shuts it down gracefully.
///
/// Nothing is bootstrapped: the logging and metrics systems are process-wide, so the worker logs through the logger
/// it is given (by default one that drops everything) and its metrics go to swift-metrics' no-op backend. It serves no HTTP port and
/// leaves the test process's signals alone.
final class InProcessWorker: Sendable {
    let workerID: String
    private let worker: Worker
    private let running: Task<Void, any Error>

    var readiness: Readiness { worker.readiness }

    /// A worker on `store` (in memory by default) that checks an unavailable store after `storeRetryBackoff`,
    /// reconnects after `reconnectBackoff`, runs its pipeline with `pipeline`, and logs to `logger`.
    init(
        topology: TestTopology, registry: HandlerRegistry, store: any StateStore = InMemoryStateStore(),
        storeRetryBackoff: Backoff = Backoff(initial: .seconds(1), maximum: .seconds(30)),
        reconnectBackoff: Backoff = Backoff(), pipeline: PipelineConfiguration = PipelineConfiguration(),
        logger: Logger = .quiet
    ) throws {
        workerID = "\(topology.prefix)-in-process"
        var configuration = WorkerConfiguration(broker: try AMQPConfiguration(url: TestBroker.url ?? ""))
        configuration.topology = topology.topology
        configuration.workerID = workerID
        configuration.broker.connectionName = "responder \(workerID)"
        configuration.storeRetryBackoff = storeRetryBackoff
        configuration.reconnectBackoff = reconnectBackoff
        configuration.observability = nil
        configuration.handlesSignals = false
        let worker = Worker(registry: registry, store: store, configuration: configuration, pipeline: pipeline, logger: logger)
        self.worker = worker
        running = Task { try await worker.run() }
    }

    /// Waits until the worker consumes.
    func waitUntilReady() async throws {
        try await waitFor("the in-process worker to consume") { self.worker.readiness.isReady }
    }

    /// Shuts the worker down gracefully and waits for it; rethrows what the worker threw.
    func stop() async throws {
        await worker.shutDown()
        try await running.value
    }
}
