import AMQP
import Foundation
import Logging
import NotificationEvents
import Responder
import ResponderIntake
import ServiceLifecycle
import Synchronization
import Tracing

/// The worker's work over one pair of connections: declare the topology, consume inputs, run them through the
/// pipeline, publish what they produced, wait for the broker's confirms, then acknowledge the inputs.
///
/// Inputs arrive and are acknowledged on one connection and outputs leave on another, as RabbitMQ advises: when
/// the broker blocks a publishing connection (memory or disk alarm), the consuming one keeps its heartbeats and the
/// acks of inputs not waiting for a held publish flowing. The AMQP client holds publishes while blocked; the
/// session only reports it.
///
/// It consumes the topology's ``Topology/consumedQueues``, each on a channel of its own (so each has its own
/// delivery tags and its share of the prefetch, ``WorkerConfiguration/consumedQueuePrefetches``): the input queue,
/// or in ordered mode every shard queue, where the broker keeps one consumer of the fleet active per shard. Ordered
/// mode retries failed inputs in place.
///
/// When the state store is unavailable, the session stops consuming, hands back the inputs it holds, waits for the
/// store (``IntakePause``) and consumes again on the same channels; in ordered mode the inputs wait in place instead.
///
/// ``run()`` returns once the consumer is cancelled and every input it received is settled (graceful shutdown,
/// or the broker cancelled the consumer). It throws when the connection or a channel fails: inputs not yet
/// acknowledged are then redelivered by the broker, and the inbox makes their second run effect-free.
final class BrokerSession: Sendable {
    private let consuming: AMQPConnection
    private let publishing: AMQPConnection
    /// The thread the session runs on, the consuming connection's: the loops and the handlers' lanes
    /// (``ResponseScheduler``'s executor), so that an input goes from socket to handler to ack without waking another.
    private let thread: IOThread
    private let configuration: WorkerConfiguration
    let pipeline: ResponsePipeline
    private let readiness: Readiness
    let metrics: WorkerMetrics
    let failures: FailureRouting
    let pause: IntakePause
    let logger: Logger
    let tracing: InputTracing?
    /// Ordered mode on a fleet: which shards this worker consumes; nil consumes every queue.
    private let ownership: ShardOwnership?
    private let consumer = Mutex<(started: [AMQPConsumer], stopRequested: Bool)>(([], false))
    private let receivedInput = Atomic<Bool>(false)
    /// Why the publishing connection was lost, when it was: the session then ends with this error.
    private let publishingLost = Mutex<AMQPError?>(nil)

    init(
        consuming: AMQPConnection, publishing: AMQPConnection, on thread: IOThread, configuration: WorkerConfiguration,
        pipeline: ResponsePipeline, readiness: Readiness, metrics: WorkerMetrics, pause: IntakePause,
        ownership: ShardOwnership?, logger: Logger
    ) {
        self.consuming = consuming
        self.publishing = publishing
        self.thread = thread
        self.configuration = configuration
        self.pipeline = pipeline
        self.readiness = readiness
        self.metrics = metrics
        self.failures = FailureRouting(topology: configuration.topology, workerID: configuration.workerID)
        self.pause = pause
        self.ownership = ownership
        self.logger = logger
        tracing = pipeline.configuration.tracer.map { InputTracing(tracer: $0, inputQueue: configuration.topology.inputQueue) }
    }

    /// Whether any input was delivered in this session: what shows the broker was serving it, for the reconnection
    /// backoff (``ReconnectAttempts``).
    var hasReceivedInput: Bool { receivedInput.load(ordering: .relaxed) }

    /// Stops taking new inputs: cancels the consumer so ``run()`` can finish the ones it has and return.
    func stopConsuming() {
        consumer.withLock { $0.stopRequested = true }
        cancelConsumer()
    }

    /// Cancels the consumers, so ``process(_:output:)`` settles what it holds and returns; on its own (not
    /// through ``stopConsuming()``), for a pause, after which the session consumes again.
    func cancelConsumer() {
        for started in consumer.withLock({ $0.started }) { Task { try? await started.cancel() } }
    }

    private var stopRequested: Bool { consumer.withLock { $0.stopRequested } }

    /// Runs the session on its thread (the consuming connection's, where the handlers run too) until it ends.
    func run() async throws {
        try await withTaskExecutorPreference(thread) { try await runOnThread() }
    }

    private func runOnThread() async throws {
        try await ShardCheck(topology: configuration.topology).verify(on: publishing)
        let outputChannel = try await publishing.openChannel()
        try await declareTopology(on: outputChannel)
        try await outputChannel.enablePublisherConfirms()
        var inputs: [Input] = []
        for (queue, prefetch) in zip(configuration.topology.consumedQueues, configuration.consumedQueuePrefetches) {
            let channel = try await consuming.openChannel()
            try await channel.setPrefetch(prefetch)
            inputs.append(Input(queue: queue, channel: channel, acks: Acknowledger(channel: channel)))
        }
        readiness.set(.disconnected, false)
        metrics.connected.record(1)

        let publishingWatcher = Task { await watchPublishing() }
        defer {
            publishingWatcher.cancel()
            readiness.set(.blocked, false)
            metrics.connected.record(0)
            // Inputs this session received and never settled are the broker's again (redelivered to the next
            // session), so none of them is in flight here any more; without this the gauge kept them forever.
            metrics.inFlight.set(0)
        }
        // A lost publishing connection is why the session ended, whatever the consuming side then reported.
        do {
            try await consume(inputs, output: outputChannel)
        } catch {
            throw publishingLost.withLock { $0 } ?? error
        }
        if let lost = publishingLost.withLock({ $0 }) { throw lost }
        for input in inputs { await input.channel.close() }
        await outputChannel.close()
    }

    /// Consumes `inputs` until a graceful stop or the broker cancels the consumers, through store pauses.
    private func consume(_ inputs: [Input], output outputChannel: AMQPChannel) async throws {
        while true {
            if pause.isPaused {
                do {
                    try await cancelWhenGracefulShutdown { try await self.pause.waitUntilAvailable() }
                } catch is CancellationError {
                    // A graceful shutdown ends the wait; a cancelled session ends with the cancellation.
                    if Task.isCancelled { throw CancellationError() }
                    return
                }
                if stopRequested { return }
            }
            // In ordered mode, only the shards this worker holds (ShardOwnership): the rest wait for their holders.
            var consumed = inputs
            if let ownership {
                let held = try await ownership.shardsToConsume { self.stopRequested }
                if stopRequested { return }
                consumed = inputs.enumerated().filter { held.contains($0.offset) }.map(\.element)
            }
            var consumers: [(AMQPConsumer, Input)] = []
            for input in consumed {
                let deliveries = try await input.channel.consume(queue: input.queue)
                consumer.withLock { $0.started.append(deliveries) }
                consumers.append((deliveries, input))
            }
            // A change of the shards held cancels the consumers like a pause: what they took settles first. A fence
            // closes the connection: what they took goes back to the head of its shards, unsettled.
            ownership?.observe(change: { self.cancelConsumer() }, fence: { Task { await self.consuming.close() } })
            if stopRequested { cancelConsumer() }
            logger.info("consuming", metadata: ["queues": "\(consumed.map(\.queue).joined(separator: ","))"])
            try await process(consumers, output: outputChannel)
            ownership?.observe(change: nil, fence: nil)
            consumer.withLock { $0.started = [] }
            // The consumers ended: a graceful stop, the broker cancelled them, the publishing connection was lost,
            // a pause, or the shards held change.
            guard pause.isPaused || ownership?.needsChange == true, !stopRequested, publishingLost.withLock({ $0 }) == nil
            else { return }
        }
    }

    /// Declares the topology. A queue the broker holds with other arguments is refused in
    /// ``Topology/declare(on:)``; any other declaration it refuses for its shape (406 PRECONDITION_FAILED: an
    /// exchange of another type) or type (503: the consistent-hash exchange's plugin is not enabled) here. Either is
    /// a ``TopologyConflict``, which no reconnection fixes.
    private func declareTopology(on channel: AMQPChannel) async throws {
        do {
            try await configuration.topology.declare(on: channel)
        } catch AMQPError.channelClosed(406, let text) {
            throw TopologyConflict(.shape(reply: text))
        } catch AMQPError.connectionClosed(503, let text) where configuration.topology.isOrdered {
            throw TopologyConflict(.hashExchangeUnavailable(reply: text))
        }
    }

    /// A consumed queue with its channel and that channel's acknowledgements.
    struct Input: Sendable {
        var queue: String
        var channel: AMQPChannel
        var acks: Acknowledger
    }

    /// What the scheduler carries for each delivery: the delivery, where it came from and how to settle it, and its
    /// `process` span while tracing is on. A class, so that the hand-offs from intake to the scheduler, its batch,
    /// the completion and the settlement each copy one reference instead of the whole delivery (its body, every
    /// property, the channel's strings).
    final class Received: Sendable {
        let delivery: AMQPDelivery
        let input: Input
        let span: (any Span)?

        init(_ delivery: AMQPDelivery, from input: Input, span: (any Span)?) {
            self.delivery = delivery
            self.input = input
            self.span = span
        }
    }

    /// Five loops, so that no input's handling waits on another's confirm: intake feeds the scheduler what each read pass
    /// brought, the scheduler handles all that arrived since its last pass in batches of at most half the prefetch
    /// (``WorkerConfiguration/largestBatch``; each one store load and one commit; each notification's events in order),
    /// publishing hands each completion's messages to the connection in completion order (which keeps a notification's
    /// updates in order on the wire), confirming waits for the confirms of inputs with outputs, in the order they were
    /// published, and acknowledges them as they arrive, and settling acknowledges the inputs without outputs as they
    /// come; inputs settled together share one call.
    private func process(_ consumers: [(AMQPConsumer, Input)], output: AMQPChannel) async throws {
        let topology = configuration.topology
        // Ordered mode keeps a failed or store-held input where it is, so that no later event of its notification
        // overtakes it; a graceful shutdown ends the store wait and leaves the input to the broker.
        let pause = pause
        let outageWait: @Sendable (Unavailability) async throws -> Void = { unavailability in
            try await cancelWhenGracefulShutdown { try await pause.waitInPlace(unavailability) }
        }
        let scheduler = ResponseScheduler<Received>(
            pipeline: pipeline, maxConcurrentNotifications: configuration.concurrency,
            retryDelaysInPlace: topology.isOrdered ? topology.retryDelays.map { .seconds($0) } : [],
            waitInPlace: topology.isOrdered ? outageWait : nil, executor: thread,
            maxBatchSize: configuration.largestBatch)
        // Inputs that published something wait for their confirms; the others are settled at once, so that an
        // input without outputs (three in four on RedGreen's mix) is acked as soon as no input ahead of it waits for a
        // confirm (AckTracker: behind one that does, the confirm's `multiple` ack covers it).
        let confirming = HandOff<Settlement>()
        let ready = HandOff<Settlement>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await scheduler.run() }
            group.addTask { [metrics] in
                defer { scheduler.finish() }
                // One intake per consumed queue: each submits in its queue's order, which is all the scheduler
                // needs, since a notification's events are all in one queue. What arrived in one read pass is
                // submitted together, and the scheduler handles all that was submitted since its last pass in
                // batches of at most half the prefetch, whichever queues it came from.
                try await withThrowingTaskGroup(of: Void.self) { intakes in
                    for (deliveries, input) in consumers {
                        intakes.addTask {
                            var arrivals = deliveries.makeAsyncIterator()
                            var submitting: [(message: InboundMessage, tag: Received, context: ServiceContext?)] = []
                            while let batch = try await arrivals.nextBatch() {
                                if !self.receivedInput.load(ordering: .relaxed) {
                                    self.receivedInput.store(true, ordering: .relaxed)
                                }
                                for delivery in batch {
                                    input.acks.received(delivery)
                                    if delivery.isBodyDropped {
                                        try self.refuseOversized(delivery, acks: input.acks)
                                        continue
                                    }
                                    metrics.inFlight.increment()
                                    let message = delivery.message
                                    let span = self.tracing?.startProcessing(message)
                                    submitting.append(
                                        (message, Received(delivery, from: input, span: span),
                                            span?.context ?? ServiceContext.current))
                                }
                                scheduler.submit(submitting)
                                submitting.removeAll(keepingCapacity: true)
                            }
                        }
                    }
                    while try await intakes.next() != nil {}
                }
            }
            group.addTask {
                defer {
                    confirming.finish()
                    ready.finish()
                }
                for await completion in scheduler.completions {
                    let settlement = try self.publish(completion, on: output)
                    (settlement.confirmations.isEmpty ? ready : confirming).yield(settlement)
                }
            }
            group.addTask {
                var batch: [Settlement] = []
                while await confirming.take(into: &batch) {
                    try await self.confirmAndAcknowledge(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            group.addTask {
                var batch: [Settlement] = []
                while await ready.take(into: &batch) {
                    try self.acknowledge(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            // The first loop to fail ends the session: leaving the body with its error cancels the others.
            // waitForAll() would wait for them instead, and intake waits for deliveries for as long as the
            // consuming connection lives, so losing only the publishing side would hang the worker, still "ready".
            while try await group.next() != nil {}
        }
    }

    /// Follows the publishing connection: blocked and unblocked, and its loss, which ends the session even while no
    /// input arrives (closing the consuming connection ends the consumers), so an idle worker does not stay ready
    /// with nothing to publish on.
    private func watchPublishing() async {
        for await event in publishing.events {
            switch event {
            case .blocked(let reason):
                logger.warning("the broker blocked publishing", metadata: ["reason": "\(reason)"])
                readiness.set(.blocked, true)
                metrics.blocked.record(1)
            case .unblocked:
                logger.info("the broker unblocked publishing")
                readiness.set(.blocked, false)
                metrics.blocked.record(0)
            case .closed(nil):
                return
            case .closed(let error?):
                publishingLost.withLock { $0 = error }
                await consuming.close()
                return
            }
        }
    }
}
