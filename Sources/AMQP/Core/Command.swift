/// How the I/O thread answers a caller: called once, on the I/O thread, so it must only resume a continuation.
typealias Reply<Value> = @Sendable (Result<Value, AMQPError>) -> Void

/// Work callers hand to the I/O thread through ``ConnectionCore/submit(_:)``.
enum Command: Sendable {
    /// Open a new channel; the I/O thread picks its number.
    case openChannel(reply: Reply<ChannelLink>)
    /// A synchronous method on a channel (declare, bind, qos, consume, close...), answered by the broker's reply.
    case call(ChannelLink, ChannelMethod, reply: Reply<MethodReply>)
    /// basic.publish, carried by its confirmation, which resolves on the broker's ack (or once written without
    /// publisher confirms).
    case publish(PublishConfirmation)
    /// basic.ack, basic.nack or basic.reject: fire and forget.
    case settle(ChannelLink, Settlement)
    /// The task iterating a consumer was cancelled: cancel it on the broker and requeue what still arrives.
    case abandonConsumer(ChannelLink, tag: String)
    /// Close the connection; `nil` when nobody waits (the connection object went away).
    case closeConnection(reply: Reply<Void>?)
}

/// The synchronous channel methods, with their arguments.
enum ChannelMethod: Sendable {
    case open
    case close
    case declareExchange(
        name: String, type: String, durable: Bool, autoDelete: Bool, passive: Bool, arguments: FieldTable)
    case deleteExchange(name: String, ifUnused: Bool)
    case declareQueue(
        name: String, durable: Bool, exclusive: Bool, autoDelete: Bool, passive: Bool, arguments: FieldTable)
    case bindQueue(queue: String, exchange: String, routingKey: String, arguments: FieldTable)
    case bindExchange(destination: String, source: String, routingKey: String, arguments: FieldTable)
    case purgeQueue(name: String)
    case deleteQueue(name: String, ifUnused: Bool, ifEmpty: Bool)
    case qos(prefetchCount: UInt16)
    case selectConfirms
    case consume(queue: String, tag: String, exclusive: Bool, arguments: FieldTable, deliveries: DeliveryStream.Continuation)
    case cancel(tag: String)
    case get(queue: String)
}

/// The broker's answer to a ``ChannelMethod``, copied out of librabbitmq's memory.
enum MethodReply: Sendable {
    case done
    case queueDeclared(QueueDeclareResult)
    case messageCount(UInt32)
    case got(AMQPDelivery?)
}

/// A consumer's deliveries, in batches, and finally its end.
typealias DeliveryStream = AsyncStream<Result<[AMQPDelivery], AMQPError>>

/// A basic.publish waiting for the I/O thread.
struct OutgoingPublish: Sendable {
    var channel: ChannelLink
    var exchange: String
    var routingKey: String
    var mandatory: Bool
    var properties: BasicProperties
    var body: [UInt8]
}

/// How a consumer settles a delivery.
enum Settlement: Sendable {
    case ack(deliveryTag: UInt64, multiple: Bool)
    case nack(deliveryTag: UInt64, multiple: Bool, requeue: Bool)
    case reject(deliveryTag: UInt64, requeue: Bool)
}
