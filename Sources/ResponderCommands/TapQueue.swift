import AMQP

/// A server-named, exclusive queue bound to an exchange, for tools that look at traffic without taking it from
/// the worker's or the push sender's queues. The broker deletes it when the connection closes.
struct TapQueue {
    let name: String
    let deliveries: AMQPConsumer

    static func open(on channel: AMQPChannel, exchange: String, routingKey: String) async throws -> TapQueue {
        let queue = try await channel.declareQueue(
            "", durable: false, exclusive: true, autoDelete: true, passive: false, arguments: [:])
        try await channel.bindQueue(queue.name, exchange: exchange, routingKey: routingKey)
        try await channel.setPrefetch(500)
        return TapQueue(name: queue.name, deliveries: try await channel.consume(queue: queue.name, exclusive: true))
    }
}
