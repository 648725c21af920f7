import AMQP

extension Topology {
    /// Declares every queue, exchange and binding; idempotent while the existing ones have the same shape. Throws
    /// ``TopologyConflict`` for a queue that exists with other arguments (the channel is closed then).
    ///
    /// Queues go first, in the plan's order: a quorum queue may name its dead-letter exchange before it exists, and
    /// an ordered topology's shard 0 on the broker then means every shard was declared (see `ShardCheck`).
    public func declare(on channel: AMQPChannel) async throws {
        let plan = declarations
        for queue in plan.queues {
            try await queue.declare(on: channel)
        }
        for exchange in plan.exchanges {
            try await channel.declareExchange(exchange.name, type: ExchangeType(exchange.type), durable: true)
        }
        for binding in plan.exchangeBindings {
            try await channel.bindExchange(binding.destination, to: binding.source, routingKey: binding.routingKey)
        }
        for binding in plan.bindings {
            try await channel.bindQueue(binding.queue, exchange: binding.exchange, routingKey: binding.routingKey)
        }
    }
}

extension QueueDeclaration {
    /// Declares this durable queue with its arguments; idempotent while an existing one has the same shape. Throws
    /// ``TopologyConflict`` when it exists with other arguments (the channel is closed then).
    public func declare(on channel: AMQPChannel) async throws {
        let arguments = FieldTable(arguments.sorted { $0.key < $1.key }.map { ($0.key, $0.value.fieldValue) })
        do {
            _ = try await channel.declareQueue(
                name, durable: true, exclusive: false, autoDelete: false, passive: false, arguments: arguments)
        } catch {
            guard case .channelClosed(406, let reply) = error else { throw error }
            throw TopologyConflict(.queueArguments(queue: name, reply: reply))
        }
    }
}

extension ArgumentValue {
    var fieldValue: FieldValue {
        switch self {
        case .string(let value): .string(value)
        case .integer(let value): .int64(value)
        case .boolean(let value): .bool(value)
        }
    }
}
