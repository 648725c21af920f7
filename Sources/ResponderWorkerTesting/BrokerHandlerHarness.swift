import AMQP
import Foundation
import InMemoryTracing
import Logging
import NotificationEvents
import Responder
import ResponderIntake
import ResponderTesting
import ResponderWorker
import Synchronization
import Tracing

/// A team's handlers run by a real worker on a real RabbitMQ: `HandlerHarness`'s calls and answers, with every
/// response published to the broker, consumed, handled, published on and acknowledged as in production.
///
/// For the few tests that want the whole trip (the broker's routing, the worker's publish limits, the topology);
/// the rest stay on `HandlerHarness`, which needs no broker. The worker runs in the test process on a topology of
/// this harness's own (every name prefixed `responder-testing-` and a random id), so tests run side by side on one
/// broker, and keeps state in an `InMemoryStateStore`:
///
/// ```swift
/// let harness = try await BrokerHandlerHarness(amqpURL: url) { try Chat.register(in: &$0) }
/// let liked = try await harness.respond(
///     to: .custom(Chat.likeActionIdentifier), request: "message-1", category: Chat.messageCategoryIdentifier)
/// #expect(liked.newActions?.map(\.identifier) == [Chat.replyActionIdentifier, Chat.unlikeActionIdentifier])
/// try await harness.stop()
/// ```
///
/// What differs from `HandlerHarness`: a handler's retryable failure is retried through the retry queues (one
/// second each here) and answered with the dead letter it ends as, and the outcome's outputs are the messages as
/// the broker delivered them. The pipeline's tracer is the harness's own: it is how the harness learns that the
/// worker acknowledged an input.
public final class BrokerHandlerHarness: Sendable {
    /// The handlers and categories as registered.
    public let registry: HandlerRegistry
    /// Where the worker keeps the notifications' state and the inbox during the test.
    public let store: InMemoryStateStore
    /// This harness's exchanges and queues; ``stop()`` deletes them.
    public let topology: Topology
    private let worker: Worker
    private let running: Task<Void, any Error>
    private let connection: AMQPConnection
    private let channel: AMQPChannel
    private let acknowledged: AcknowledgedInputs
    private let eventIDs = TestEventIDs()
    /// A queue of the harness's own on each declared destination, where the handlers' sent messages are read.
    private let sentQueues: [String]
    /// Messages read from the queues that belong to a response not asked for yet, by the event id that caused them.
    private let unclaimed = Mutex(ReadMessages())
    /// How long a call waits, unless told otherwise.
    private let timeout: Duration

    /// Starts a worker with the handlers `register` registers, against the broker at `amqpURL`, and waits until it
    /// consumes (at most `timeout`).
    ///
    /// - Parameters:
    ///   - amqpURL: the test broker's URL (say, from the test's `AMQP_URL`), never production's.
    ///   - configuration: the pipeline's settings (the default ones unless a test needs others).
    ///   - logger: where the worker and the handlers log; nothing is written by default.
    ///   - timeout: how long the harness waits, at most, for the worker to connect and declare its topology, and
    ///     then for each response to be acknowledged. Only a guard against a hang: a test machine busy with the
    ///     rest of its suite may take tens of seconds to start a worker, and a test that waits too little fails
    ///     on a worker that works.
    ///   - register: the registration: categories, extensions and the app delegate.
    public init(
        amqpURL: String, configuration: PipelineConfiguration = PipelineConfiguration(),
        logger: Logger = Logger(label: "responder.testing", factory: { _ in SwiftLogNoOpLogHandler() }),
        timeout: Duration = .seconds(120), register: (inout HandlerRegistry) throws -> Void
    ) async throws {
        var registry = HandlerRegistry()
        try register(&registry)
        try registry.checkExtensionCategories()
        self.registry = registry
        let store = InMemoryStateStore()
        self.store = store
        self.timeout = timeout
        let prefix = "responder-testing-\(UUID().uuidString.prefix(8).lowercased())"
        topology = Topology.ofTest(prefix)
        let broker = try AMQPConfiguration(url: amqpURL)
        var worker = WorkerConfiguration(broker: broker)
        worker.topology = topology
        worker.workerID = prefix
        worker.broker.connectionName = "responder \(prefix)"
        worker.observability = nil
        worker.handlesSignals = false
        let tracer = InMemoryTracer(recordInjections: false, recordExtractions: false)
        var pipeline = configuration
        pipeline.tracer = tracer
        acknowledged = AcknowledgedInputs(tracer: tracer)
        let started = Worker(registry: registry, store: store, configuration: worker, pipeline: pipeline, logger: logger)
        let running = Task { try await started.run() }
        self.worker = started
        self.running = running
        try await Self.waitUntilReady(started, running: running, timeout: timeout)
        do {
            (connection, channel, sentQueues) = try await Self.open(broker, prefix, registry.destinations.values, logger)
        } catch {
            // No worker is left running in the test process when the harness could not be made.
            await started.shutDown()
            _ = await running.result
            throw error
        }
    }

    /// Publishes `response` as the event `eventID` (by default a new id for each call; pass an id again to send a
    /// redelivery) from `source`, waits until the worker acknowledged it (at most `timeout`, by default the
    /// harness's), and returns what it published.
    public func respond(
        _ response: NotificationResponse, eventID: String? = nil, source: String = TestResponse.source,
        timeout: Duration? = nil
    ) async throws -> HandledResponse {
        let timeout = timeout ?? self.timeout
        let id = eventID ?? eventIDs.next(for: response.notification.request.identifier)
        let event = TestResponse.event(response, id: id, source: source)
        try await channel.publish(
            EventCodec.encode(event), exchange: topology.inputExchange,
            routingKey: response.notification.request.content.categoryIdentifier,
            properties: MessageProperties(contentType: "application/cloudevents+json", messageID: id))
        let ending = try await acknowledged.ending(of: id, timeout: timeout)
        try await readQueues()
        let outcome: ResponseOutcome
        switch ending {
        case .completed(let disposition):
            outcome = .completed(
                outputs: unclaimed.withLock { $0.claimOutputs(causedBy: id) }, disposition: disposition)
        case .deadLettered:
            let info = try await deadLetter(of: id, timeout: timeout)
            outcome = .deadLetter(reason: info.reason, detail: info.detail)
        }
        return try HandledResponse(outcome, destinations: registry.destinations.values)
    }

    /// Publishes the user's `action` on the notification `request` of `category` (typing `userText` for a
    /// text-input action) as a new event, and returns what the worker published.
    public func respond(
        to action: ActionIdentifier, request: String, category: String, userText: String? = nil
    ) async throws -> HandledResponse {
        try await respond(TestResponse.response(action, request: request, category: category, userText: userText))
    }

    /// The state `handler` keeps for the notification, or nil when it has none stored yet.
    public func state<Extension: NotificationContentExtension>(
        of handler: Extension, for requestIdentifier: String
    ) async throws -> Extension.State? {
        try await store.state(of: handler, for: requestIdentifier)
    }

    /// Shuts the worker down gracefully, deletes this harness's exchanges and queues, and closes its connection;
    /// rethrows what the worker threw.
    public func stop() async throws {
        await worker.shutDown()
        let stopped = await running.result
        await topology.delete(on: channel)
        await connection.close()
        try stopped.get()
    }

    /// Moves every message waiting in the output queue and the destination queues into `unclaimed`.
    private func readQueues() async throws {
        for queue in [topology.outputQueue] + sentQueues {
            while let delivery = try await channel.get(queue: queue) {
                try channel.ack(deliveryTag: delivery.deliveryTag)
                unclaimed.withLock { $0.keep(delivery) }
            }
        }
    }

    /// The dead letter of the input `id`, read from the dead-letter queue (the worker confirmed it before its ack;
    /// the broker's own dead letters, of a body over the limit, may take a moment).
    private func deadLetter(of id: String, timeout: Duration) async throws -> DeadLetterInfo {
        let deadline = ContinuousClock.now + timeout
        while true {
            while let delivery = try await channel.get(queue: topology.deadLetterQueue) {
                try channel.ack(deliveryTag: delivery.deliveryTag)
                unclaimed.withLock { $0.keepDeadLetter(delivery) }
            }
            if let info = try unclaimed.withLock({ try $0.claimDeadLetter(of: id) }) { return info }
            guard ContinuousClock.now < deadline else {
                throw HarnessTimeout("the dead letter of \(id) in \(topology.deadLetterQueue)", timeout)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The harness's own connection, with confirms, and a queue of its own bound to each destination once the
    /// worker declared their exchanges (exclusive, so the queues go with the connection); closed again on failure.
    private static func open(
        _ broker: AMQPConfiguration, _ prefix: String, _ destinations: some Collection<MessageDestination>,
        _ logger: Logger
    ) async throws -> (AMQPConnection, AMQPChannel, [String]) {
        let connection = try await AMQPConnection.connect(broker, logger: logger)
        do {
            let channel = try await connection.openChannel()
            try await channel.enablePublisherConfirms()
            var queues: [String] = []
            for destination in destinations.sorted(by: { $0.name < $1.name }) {
                let queue = "\(prefix).sent.\(destination.name)"
                try await channel.declareQueue(queue, durable: false, exclusive: true)
                try await channel.bindQueue(queue, exchange: destination.exchange, routingKey: destination.routingKey)
                queues.append(queue)
            }
            return (connection, channel, queues)
        } catch {
            await connection.close()
            throw error
        }
    }

    /// Waits until `worker` consumes; throws what it threw if it stopped, or a timeout.
    private static func waitUntilReady(
        _ worker: Worker, running: Task<Void, any Error>, timeout: Duration
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while !worker.readiness.isReady {
            guard ContinuousClock.now < deadline else {
                await worker.shutDown()
                try await running.value
                throw HarnessTimeout("the worker to consume", timeout)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
