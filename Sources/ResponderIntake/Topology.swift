import Responder

/// The exchanges, queues and bindings the worker relies on, by name.
///
/// Declared idempotently at every (re)connection and printed by `responder topology`. Every name is configurable;
/// the defaults are the ones the README documents.
public struct Topology: Sendable, Hashable, Codable {
    /// Where producing services publish notification responses (topic).
    public var inputExchange = "notifications.responses"
    /// The worker's quorum queue, bound to ``inputExchange`` with `#`.
    public var inputQueue = "responder.responses"
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
    /// How many deliveries of one message the input queue allows before the broker dead-letters it: the guard
    /// against a message that crashes the worker every time.
    public var deliveryLimit = 5
    /// The type of the output, dead-letter and retry queues: ``QueueType/quorum`` for a fleet on a cluster. A queue
    /// of that name that exists with the other type is refused by the broker, and the worker stops, saying so.
    public var outputQueueType = QueueType.classic

    public init() {}

    /// The retry queue for the `attempt`-th retry (1-based).
    public func retryQueue(attempt: Int) -> String {
        "\(inputQueue).retry.\(retryDelays[attempt - 1])s"
    }

    /// Everything to declare, in an order that satisfies the references between them.
    public var declarations: TopologyDeclarations {
        var queues = [
            QueueDeclaration(
                name: inputQueue,
                arguments: [
                    "x-queue-type": .string("quorum"),
                    "x-delivery-limit": .integer(Int64(deliveryLimit)),
                    "x-dead-letter-exchange": .string(deadLetterExchange),
                    "x-dead-letter-routing-key": .string(inputQueue),
                ]),
            QueueDeclaration(name: outputQueue, arguments: typeArguments),
            QueueDeclaration(name: deadLetterQueue, arguments: typeArguments),
        ]
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
            bindings: [
                BindingDeclaration(queue: inputQueue, exchange: inputExchange, routingKey: "#"),
                BindingDeclaration(queue: outputQueue, exchange: outputExchange, routingKey: "#"),
                BindingDeclaration(queue: deadLetterQueue, exchange: deadLetterExchange, routingKey: "#"),
            ])
    }
}

extension Topology {
    /// What makes a queue the output queue type; nothing for classic, the broker's default.
    private var typeArguments: [String: ArgumentValue] {
        switch outputQueueType {
        case .classic: [:]
        case .quorum: ["x-queue-type": .string("quorum")]
        }
    }

    /// A quorum queue dead-letters at most once unless told otherwise: a retry expiring during a failover would be
    /// dropped. At least once needs the queue to refuse publishes when full rather than drop its oldest.
    private var retryDeadLettering: [String: ArgumentValue] {
        switch outputQueueType {
        case .classic: [:]
        case .quorum: ["x-dead-letter-strategy": .string("at-least-once"), "x-overflow": .string("reject-publish")]
        }
    }
}

/// A plan of declarations: data, so it can be printed as well as declared.
public struct TopologyDeclarations: Sendable, Hashable, Codable {
    public var exchanges: [ExchangeDeclaration]
    public var queues: [QueueDeclaration]
    public var bindings: [BindingDeclaration]
}

/// A durable exchange.
public struct ExchangeDeclaration: Sendable, Hashable, Codable {
    public var name: String
    /// `direct`, `topic`, `fanout` or `headers`.
    public var type: String
}

/// A durable queue and its arguments.
public struct QueueDeclaration: Sendable, Hashable, Codable {
    public var name: String
    public var arguments: [String: ArgumentValue]
}

/// A queue bound to an exchange.
public struct BindingDeclaration: Sendable, Hashable, Codable {
    public var queue: String
    public var exchange: String
    public var routingKey: String
}

/// A queue argument's value: the two kinds the topology uses.
public enum ArgumentValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case string(String)
    case integer(Int64)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        }
    }

    public var description: String {
        switch self {
        case .string(let value): "\"\(value)\""
        case .integer(let value): String(value)
        }
    }
}

extension TopologyDeclarations {
    /// The plan as a person reads it, one declaration a line.
    public var humanDescription: String {
        var lines = ["Exchanges:"]
        lines += exchanges.map { "  \($0.name)  (\($0.type), durable)" }
        lines.append("Queues:")
        for queue in queues {
            let arguments = queue.arguments.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            lines.append("  \(queue.name)  (durable\(arguments.isEmpty ? "" : ", " + arguments.joined(separator: ", ")))")
        }
        lines.append("Bindings:")
        lines += bindings.map { "  \($0.exchange) --[\($0.routingKey)]--> \($0.queue)" }
        return lines.joined(separator: "\n") + "\n"
    }
}
