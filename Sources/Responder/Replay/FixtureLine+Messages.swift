extension InboundMessage {
    /// The delivery a fixture line recorded.
    public init(_ line: FixtureLine) {
        self.init(
            body: line.bodyBytes, properties: line.properties, exchange: line.exchange, routingKey: line.routingKey,
            redelivered: line.redelivered ?? false)
    }
}

extension FixtureLine {
    /// The fixture form of an output, as replay writes it.
    public init(_ message: OutboundMessage) {
        self.init(
            exchange: message.exchange, routingKey: message.routingKey, properties: message.properties,
            bodyBytes: message.body)
    }

    /// The fixture form of a delivery, as a recorder writes it.
    public init(_ message: InboundMessage) {
        self.init(
            exchange: message.exchange, routingKey: message.routingKey, redelivered: message.redelivered,
            properties: message.properties, bodyBytes: message.body)
    }
}
