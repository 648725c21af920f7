import AMQP
import Responder

/// One message the worker publishes on behalf of an input: an output, a retry or a dead letter.
package struct Publication: Sendable {
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

extension Publication {
    /// An output of the pipeline, published as it is.
    package init(_ message: OutboundMessage) {
        self.init(
            exchange: message.exchange, routingKey: message.routingKey, body: message.body,
            properties: BasicProperties(message.properties))
    }
}

extension PublishLimits {
    /// Why `publication` cannot be published, or `nil` when it can.
    package func problem(_ publication: Publication) -> String? {
        problem(
            exchange: publication.exchange, routingKey: publication.routingKey, properties: publication.properties,
            bodySize: publication.body.count)
    }
}
