import AMQP

extension Topology {
    /// Declares every exchange, queue and binding; idempotent while the existing ones have the same shape. Throws
    /// ``TopologyMismatch`` for a queue that exists with other arguments (the channel is closed then).
    public func declare(on channel: AMQPChannel) async throws {
        let plan = declarations
        for exchange in plan.exchanges {
            try await channel.declareExchange(exchange.name, type: ExchangeType(exchange.type), durable: true)
        }
        for queue in plan.queues {
            let arguments = FieldTable(queue.arguments.sorted { $0.key < $1.key }.map { ($0.key, $0.value.fieldValue) })
            do {
                _ = try await channel.declareQueue(
                    queue.name, durable: true, exclusive: false, autoDelete: false, passive: false, arguments: arguments)
            } catch {
                guard case .channelClosed(406, let reply) = error else { throw error }
                throw TopologyMismatch(queue: queue.name, reply: reply)
            }
        }
        for binding in plan.bindings {
            try await channel.bindQueue(binding.queue, exchange: binding.exchange, routingKey: binding.routingKey)
        }
    }
}

extension ArgumentValue {
    var fieldValue: FieldValue {
        switch self {
        case .string(let value): .string(value)
        case .integer(let value): .int64(value)
        }
    }
}
