/// A message the pipeline wants published, independent of the transport that will publish it.
public struct OutboundMessage: Sendable, Hashable {
    /// The exchange to publish to.
    public var exchange: String
    /// The routing key; for action-set updates, the category identifier.
    public var routingKey: String
    /// The exact bytes to publish; a redelivered input yields the same bytes again.
    public var body: [UInt8]
    /// The properties to publish with.
    public var properties: MessageProperties

    /// A message to publish to `exchange` with `routingKey`.
    public init(exchange: String, routingKey: String, body: [UInt8], properties: MessageProperties) {
        self.exchange = exchange
        self.routingKey = routingKey
        self.body = body
        self.properties = properties
    }
}
