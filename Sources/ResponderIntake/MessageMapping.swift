import AMQP
import Responder

extension InboundMessage {
    /// The pipeline's view of a delivery: its properties as they arrived.
    public init(_ delivery: AMQPDelivery) {
        self.init(
            body: delivery.body, properties: delivery.properties, exchange: delivery.exchange,
            routingKey: delivery.routingKey, redelivered: delivery.redelivered)
    }
}
