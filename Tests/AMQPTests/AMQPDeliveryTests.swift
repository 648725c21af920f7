import AMQP
import Testing

/// A delivery carries the message as the wire did: the one `Message` the worker's pipeline reads, nothing
/// converted.
@Suite struct AMQPDeliveryTests {
    @Test func aDeliveryCarriesItsMessage() {
        let properties = MessageProperties(
            contentType: "application/cloudevents+json", contentEncoding: "utf-8", messageID: "evt-1",
            correlationID: "evt-0", type: "notification.response.v1", appID: "red-green", timestamp: 1 << 63,
            deliveryMode: .persistent, headers: ["traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"],
            priority: 9, replyTo: "replies", expiration: "60000", userID: "guest")
        let delivery = AMQPDelivery(
            body: [1, 2, 3], properties: properties, exchange: "notifications.responses",
            routingKey: "red-category", redelivered: true, deliveryTag: 9, consumerTag: "c")
        #expect(
            delivery.message
                == Message(
                    exchange: "notifications.responses", routingKey: "red-category", body: [1, 2, 3],
                    properties: properties, redelivered: true))
        #expect(delivery.bodySize == 3 && !delivery.isBodyDropped)
    }
}
