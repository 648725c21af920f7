import NotificationEvents

extension MessageProperties {
    /// The properties of a recorded fixture line; a delivery mode other than 1 or 2 is dropped.
    public init(_ properties: FixtureLine.Properties) {
        self.init(
            contentType: properties.contentType, contentEncoding: properties.contentEncoding,
            messageId: properties.messageId, correlationId: properties.correlationId, type: properties.type,
            appId: properties.appId, timestamp: properties.timestamp,
            deliveryMode: properties.deliveryMode.flatMap(DeliveryMode.init(rawValue:)),
            headers: properties.headers ?? [:])
    }
}

extension FixtureLine.Properties {
    /// The fixture form of `properties`; no headers are written as an absent `headers` field.
    public init(_ properties: MessageProperties) {
        self.init(
            contentType: properties.contentType, contentEncoding: properties.contentEncoding,
            messageId: properties.messageId, correlationId: properties.correlationId, type: properties.type,
            appId: properties.appId, timestamp: properties.timestamp, deliveryMode: properties.deliveryMode?.rawValue,
            headers: properties.headers.isEmpty ? nil : properties.headers)
    }
}

extension InboundMessage {
    /// The delivery a fixture line recorded.
    public init(_ line: FixtureLine) {
        self.init(
            body: line.bodyBytes, properties: MessageProperties(line.properties), exchange: line.exchange,
            routingKey: line.routingKey, redelivered: line.redelivered ?? false)
    }
}

extension FixtureLine {
    /// The fixture form of an output, as replay writes it.
    public init(_ message: OutboundMessage) {
        self.init(
            exchange: message.exchange, routingKey: message.routingKey,
            properties: FixtureLine.Properties(message.properties), bodyBytes: message.body)
    }

    /// The fixture form of a delivery, as a recorder writes it.
    public init(_ message: InboundMessage) {
        self.init(
            exchange: message.exchange, routingKey: message.routingKey, redelivered: message.redelivered,
            properties: FixtureLine.Properties(message.properties), bodyBytes: message.body)
    }
}
