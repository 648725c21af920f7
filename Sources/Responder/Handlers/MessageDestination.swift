/// Where handlers may send messages of their own (a chat reply, a follow-up for another service): an exchange and a
/// routing key the registration declares up front with ``HandlerRegistry/declare(_:)``, never taken from an input,
/// so no producer can steer what handlers send.
///
/// The worker declares the exchange (durable, of ``exchangeType``) at start, and the queue, if one is named, bound to
/// it with ``routingKey``: a message the broker cannot route is refused, and its input goes back to the queue until
/// it can, so name a queue unless the consumer's own is bound before the worker starts.
public struct MessageDestination: Sendable, Hashable, Codable {
    /// The name handlers and the registry know the destination by; unique in a registry.
    public let name: String
    /// The exchange messages are published to.
    public let exchange: String
    /// The exchange's type: `topic` (the default), `direct`, `fanout` or `headers`.
    public let exchangeType: String
    /// The routing key every message to this destination carries.
    public let routingKey: String
    /// A durable queue the worker declares and binds to ``exchange`` with ``routingKey``, or nil to declare none.
    public let queue: String?

    /// A destination named `name`: messages go to `exchange` (of `exchangeType`) with `routingKey`, and the worker
    /// keeps `queue`, if given, bound to it.
    public init(name: String, exchange: String, routingKey: String, exchangeType: String = "topic", queue: String? = nil) {
        self.name = name
        self.exchange = exchange
        self.exchangeType = exchangeType
        self.routingKey = routingKey
        self.queue = queue
    }
}
