extension Message {
    /// The message a fixture line recorded.
    public init(_ line: FixtureLine) {
        self.init(
            exchange: line.exchange, routingKey: line.routingKey, body: line.bodyBytes, properties: line.properties,
            redelivered: line.redelivered ?? false)
    }
}

extension FixtureLine {
    /// The fixture form of an output, as replay writes it: without a redelivered flag.
    public init(published message: Message) {
        self.init(
            exchange: message.exchange, routingKey: message.routingKey, properties: message.properties,
            bodyBytes: message.body)
    }

    /// The fixture form of a delivery, as a recorder writes it.
    public init(delivered message: Message) {
        self.init(
            exchange: message.exchange, routingKey: message.routingKey, redelivered: message.redelivered,
            properties: message.properties, bodyBytes: message.body)
    }
}
