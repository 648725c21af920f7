/// A message the broker delivered to a consumer (basic.deliver) or handed out for basic.get.
///
/// Settle it on the channel it came from with ``AMQPChannel/ack(deliveryTag:multiple:)``,
/// ``AMQPChannel/nack(deliveryTag:multiple:requeue:)`` or ``AMQPChannel/reject(deliveryTag:requeue:)``.
public struct AMQPDelivery: Sendable, Hashable {
    /// The message: exchange, routing key, properties, body and redelivered flag; its body is empty when
    /// ``isBodyDropped``.
    public var message: Message
    /// The body's size as the content header announced it.
    public var bodySize: UInt64
    /// Whether the body was over ``AMQPConfiguration/maxBodySize`` and so read and discarded rather than kept:
    /// ``body`` is empty and ``bodySize`` says how large it was.
    public var isBodyDropped = false
    /// Identifies the delivery on its channel for ack, nack and reject.
    public var deliveryTag: UInt64
    /// The consumer it was delivered to; empty for basic.get.
    public var consumerTag: String
    /// When the client read the last frame of this delivery off the socket (basic.deliver only; `nil` for basic.get
    /// and for deliveries made with the initializer): where a measure of the time from delivery to ack starts.
    public var arrivalTime: ContinuousClock.Instant?

    /// A delivery with the given fields (for tests and tools; the client builds them from the wire).
    public init(
        body: [UInt8],
        properties: MessageProperties = MessageProperties(),
        exchange: String,
        routingKey: String,
        redelivered: Bool = false,
        deliveryTag: UInt64,
        consumerTag: String
    ) {
        message = Message(
            exchange: exchange, routingKey: routingKey, body: body, properties: properties, redelivered: redelivered)
        bodySize = UInt64(body.count)
        self.deliveryTag = deliveryTag
        self.consumerTag = consumerTag
    }
}

extension AMQPDelivery {
    /// The message body; empty when ``isBodyDropped``.
    public var body: [UInt8] { message.body }
    /// The message properties, headers included.
    public var properties: MessageProperties { message.properties }
    /// The exchange the message was published to; empty for the default exchange.
    public var exchange: String { message.exchange }
    /// The routing key it was published with.
    public var routingKey: String { message.routingKey }
    /// Whether the broker delivered it before without an ack (after a nack, a requeue or a lost consumer).
    public var redelivered: Bool { message.redelivered }
}
