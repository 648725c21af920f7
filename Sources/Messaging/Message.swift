/// A message: the exchange it was published to and the routing key it was published with, its properties and its
/// body.
///
/// One type from delivery to publish: a delivery carries one (the client's `AMQPDelivery.message`), the worker's
/// pipeline reads it as its input and returns its outputs as messages, failure routing sends an input on as one, and
/// a fixture line records one.
public struct Message: Sendable, Hashable {
    /// The exchange; empty for the default exchange.
    public var exchange: String
    /// The routing key.
    public var routingKey: String
    /// The properties, headers included.
    public var properties: MessageProperties
    /// The body, byte for byte.
    public var body: [UInt8]
    /// Whether the broker delivered the message before without an ack (after a nack, a requeue or a lost
    /// consumer); false for a message to publish.
    public var redelivered: Bool

    /// A message to `exchange` with `routingKey`. Inlinable, so that a caller's values move into the message instead
    /// of being copied by a call into this module.
    @inlinable
    public init(
        exchange: String = "", routingKey: String = "", body: [UInt8],
        properties: MessageProperties = MessageProperties(), redelivered: Bool = false
    ) {
        self.exchange = exchange
        self.routingKey = routingKey
        self.body = body
        self.properties = properties
        self.redelivered = redelivered
    }
}
