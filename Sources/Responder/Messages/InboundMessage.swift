/// A message as it arrived, independent of the transport that delivered it: one input of the pipeline.
public struct InboundMessage: Sendable, Hashable {
    /// The raw body, exactly as received.
    public var body: [UInt8]
    /// The message's properties as published.
    public var properties: MessageProperties
    /// The exchange the message was published to.
    public var exchange: String
    /// The routing key it was published with.
    public var routingKey: String
    /// Whether the transport delivered this message before (AMQP's redelivered flag); informational only,
    /// since the inbox recognises a repeated event by its id whatever this says.
    public var redelivered: Bool

    /// A message with the given body and envelope.
    public init(
        body: [UInt8], properties: MessageProperties = MessageProperties(), exchange: String = "",
        routingKey: String = "", redelivered: Bool = false
    ) {
        self.body = body
        self.properties = properties
        self.exchange = exchange
        self.routingKey = routingKey
        self.redelivered = redelivered
    }
}
