import AMQP
import Responder

/// One message the worker publishes on behalf of an input: an output, a retry or a dead letter.
struct Publication: Sendable {
    var exchange: String
    var routingKey: String
    var body: [UInt8]
    var properties: BasicProperties
}

extension Publication {
    /// An output of the pipeline, published as it is.
    init(_ message: OutboundMessage) {
        self.init(
            exchange: message.exchange, routingKey: message.routingKey, body: message.body,
            properties: BasicProperties(message.properties))
    }
}

/// An input as the worker tracks it from delivery to acknowledgement.
struct Intake: Sendable {
    var delivery: AMQPDelivery
    var received: ContinuousClock.Instant
}

extension PublishLimits {
    /// Why `publication` cannot be published, or `nil` when it can.
    func problem(_ publication: Publication) -> String? {
        problem(
            exchange: publication.exchange, routingKey: publication.routingKey, properties: publication.properties,
            bodySize: publication.body.count)
    }
}
