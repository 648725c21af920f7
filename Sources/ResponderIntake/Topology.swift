import Responder

/// The exchanges, queues and bindings the worker relies on, by name.
///
/// Declared idempotently at every (re)connection and printed by `responder topology`. Every name is configurable;
/// the defaults are the ones the Topology article (ResponderWorker.docc) documents.
public struct Topology: Sendable, Hashable, Codable {
    /// Where producing services publish notification responses (topic).
    public var inputExchange = "notifications.responses"
    /// The worker's quorum queue, bound to ``inputExchange`` with `#`.
    public var inputQueue = ResponsePipeline.defaultInputQueue
    /// Where action-set updates go (topic, routing key = category identifier).
    public var outputExchange = ResponsePipeline.defaultOutputExchange
    /// A durable queue bound to ``outputExchange`` with `#`, so updates wait for the push sender.
    public var outputQueue = "responder.action-updates"
    /// Where refused and failed inputs go, with headers saying why.
    public var deadLetterExchange = "responder.dead-letter"
    /// The queue people inspect and re-drive from.
    public var deadLetterQueue = "responder.dead-letter"
    /// How long each retry waits, in seconds; one retry queue each, in order.
    public var retryDelays: [Int] = [1, 10, 60]
    /// How long each of the follow-ups' delay queues holds a message, in milliseconds (``FollowUpLadder``); one
    /// exchange and queue each, `<input queue>.follow-up.<ms>ms`, dead-lettering back to ``inputExchange``.
    public var followUpDelays = FollowUpLadder.defaultDelays
    /// How many deliveries of one message the input queue allows before the broker dead-letters it: the guard
    /// against a message that crashes the worker every time.
    public var deliveryLimit = 5
    /// The type of the output, dead-letter and retry queues: ``QueueType/quorum`` for a fleet on a cluster. A queue
    /// of that name that exists with the other type is refused by the broker, and the worker stops, saying so.
    public var outputQueueType = QueueType.classic
    /// Ordered mode's shard count: with N above 0, the input exchange feeds a consistent-hash exchange that spreads
    /// events by routing key (the notification's request identifier) over N quorum queues with a single active
    /// consumer each, and retries wait in place instead of in retry queues. 0 is the unordered topology.
    public var shards = 0
    /// Where the handlers send messages of their own (the registry's declared destinations, in name order): their
    /// exchanges and queues are declared with the rest. The worker sets them from its registry.
    public var destinations: [MessageDestination] = []

    public init() {}

    /// Whether the topology keeps each notification's events in order across the fleet (``shards`` above 0).
    public var isOrdered: Bool { shards > 0 }

    /// Ordered mode's consistent-hash exchange (`x-consistent-hash`), bound to ``inputExchange`` with `#`.
    public var shardExchange: String { "\(inputQueue).shards" }

    /// Ordered mode's `index`-th shard queue (0-based).
    public func shardQueue(_ index: Int) -> String {
        "\(inputQueue).shard.\(index)"
    }

    /// The queues a worker consumes: the input queue, or in ordered mode every shard queue.
    public var consumedQueues: [String] {
        isOrdered ? (0..<shards).map(shardQueue) : [inputQueue]
    }

    /// The retry queue for the `attempt`-th retry (1-based).
    public func retryQueue(attempt: Int) -> String {
        "\(inputQueue).retry.\(retryDelays[attempt - 1])s"
    }

    /// The follow-ups' delay queues, by the names the pipeline publishes to.
    public var followUpLadder: FollowUpLadder {
        FollowUpLadder(inputQueue: inputQueue, milliseconds: followUpDelays)
    }

    /// Everything to declare, in an order that satisfies the references between them.
    public var declarations: TopologyDeclarations {
        (isOrdered ? orderedDeclarations : unorderedDeclarations).adding(followUpLadder, topology: self)
            .adding(destinations, queueArguments: typeArguments)
    }

    /// A quorum queue whose messages the broker dead-letters after ``deliveryLimit`` deliveries.
    private func inputQueueDeclaration(_ name: String, extra: [String: ArgumentValue] = [:]) -> QueueDeclaration {
        QueueDeclaration(
            name: name,
            arguments: [
                "x-queue-type": .string("quorum"),
                "x-delivery-limit": .integer(Int64(deliveryLimit)),
                "x-dead-letter-exchange": .string(deadLetterExchange),
                "x-dead-letter-routing-key": .string(name),
            ].merging(extra) { $1 })
    }

    private var outputAndDeadLetterQueues: [QueueDeclaration] {
        [
            QueueDeclaration(name: outputQueue, arguments: typeArguments),
            QueueDeclaration(name: deadLetterQueue, arguments: typeArguments),
        ]
    }

    private var outputAndDeadLetterBindings: [BindingDeclaration] {
        [
            BindingDeclaration(queue: outputQueue, exchange: outputExchange, routingKey: "#"),
            BindingDeclaration(queue: deadLetterQueue, exchange: deadLetterExchange, routingKey: "#"),
        ]
    }

    private var unorderedDeclarations: TopologyDeclarations {
        var queues = [inputQueueDeclaration(inputQueue)] + outputAndDeadLetterQueues
        for attempt in retryDelays.indices.map({ $0 + 1 }) {
            // A retry queue holds a message for its delay, then the broker dead-letters it straight into the
            // input queue through the default exchange, so other consumers of the input exchange never see it twice.
            queues.append(
                QueueDeclaration(
                    name: retryQueue(attempt: attempt),
                    arguments: typeArguments.merging(retryDeadLettering) { $1 }.merging([
                        "x-message-ttl": .integer(Int64(retryDelays[attempt - 1]) * 1000),
                        "x-dead-letter-exchange": .string(""),
                        "x-dead-letter-routing-key": .string(inputQueue),
                    ]) { $1 }))
        }
        return TopologyDeclarations(
            exchanges: [
                ExchangeDeclaration(name: inputExchange, type: "topic"),
                ExchangeDeclaration(name: outputExchange, type: "topic"),
                ExchangeDeclaration(name: deadLetterExchange, type: "topic"),
            ],
            queues: queues,
            bindings: [BindingDeclaration(queue: inputQueue, exchange: inputExchange, routingKey: "#")]
                + outputAndDeadLetterBindings,
            exchangeBindings: [])
    }

    /// The shard queues come last to first: a worker that finds shard 0 knows the others were declared before it,
    /// which is how the worker's shard check tells a different shard count from a fleet still declaring the same one.
    private var orderedDeclarations: TopologyDeclarations {
        let shardQueues = (0..<shards).reversed().map {
            inputQueueDeclaration(shardQueue($0), extra: ["x-single-active-consumer": .boolean(true)])
        }
        return TopologyDeclarations(
            exchanges: [
                ExchangeDeclaration(name: inputExchange, type: "topic"),
                ExchangeDeclaration(name: shardExchange, type: "x-consistent-hash"),
                ExchangeDeclaration(name: outputExchange, type: "topic"),
                ExchangeDeclaration(name: deadLetterExchange, type: "topic"),
            ],
            queues: shardQueues + outputAndDeadLetterQueues,
            // A consistent-hash binding's key is the shard's weight: equal weights, equal shares.
            bindings: (0..<shards).map { BindingDeclaration(queue: shardQueue($0), exchange: shardExchange, routingKey: "1") }
                + outputAndDeadLetterBindings,
            exchangeBindings: [
                ExchangeBindingDeclaration(destination: shardExchange, source: inputExchange, routingKey: "#")
            ])
    }
}

extension Topology {
    /// What makes a queue the output queue type; nothing for classic, the broker's default.
    var typeArguments: [String: ArgumentValue] {
        switch outputQueueType {
        case .classic: [:]
        case .quorum: ["x-queue-type": .string("quorum")]
        }
    }

    /// A quorum queue dead-letters at most once unless told otherwise: a retry expiring during a failover would be
    /// dropped. At least once needs the queue to refuse publishes when full rather than drop its oldest.
    var retryDeadLettering: [String: ArgumentValue] {
        switch outputQueueType {
        case .classic: [:]
        case .quorum: ["x-dead-letter-strategy": .string("at-least-once"), "x-overflow": .string("reject-publish")]
        }
    }
}
