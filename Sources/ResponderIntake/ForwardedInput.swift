import AMQP

/// An input the worker sends on instead of outputs: to a retry queue or the dead-letter exchange (failure routing),
/// or back to its own queue (a hand-back). Its body and properties are the delivery's, as AMQP carried them, with
/// only the headers failure routing adds; the pipeline's outputs are `OutboundMessage`s, which the worker maps to
/// AMQP's properties only as it publishes them.
package struct ForwardedInput: Sendable {
    package var exchange: String
    package var routingKey: String
    package var body: [UInt8]
    package var properties: BasicProperties

    package init(exchange: String, routingKey: String, body: [UInt8], properties: BasicProperties) {
        self.exchange = exchange
        self.routingKey = routingKey
        self.body = body
        self.properties = properties
    }
}

extension PublishLimits {
    /// Why `input` cannot be published, or `nil` when it can.
    package func problem(_ input: ForwardedInput) -> String? {
        problem(
            exchange: input.exchange, routingKey: input.routingKey, properties: input.properties,
            bodySize: input.body.count)
    }
}
