import AMQP
import Foundation
import NotificationEvents
import Responder
import ResponderIntake
import Testing

/// A delivery becomes the pipeline's input with nothing converted: its properties are the one model the client
/// decoded, every header as the wire carried it.
@Suite struct MessageMappingTests {
    @Test func aDeliveryBecomesTheInboundMessageThePipelineReads() {
        let properties = MessageProperties(
            contentType: "application/cloudevents+json", contentEncoding: "utf-8", messageID: "evt-1",
            correlationID: "evt-0", type: "notification.response.v1", appID: "red-green", timestamp: 1 << 63,
            deliveryMode: .persistent, headers: ["traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"],
            priority: 9, replyTo: "replies", expiration: "60000", userID: "guest")
        let delivery = AMQPDelivery(
            body: [1, 2, 3], properties: properties, exchange: "notifications.responses",
            routingKey: "red-category", redelivered: true, deliveryTag: 9, consumerTag: "c")
        let message = InboundMessage(delivery)
        #expect(message.body == [1, 2, 3])
        #expect(message.properties == properties)
        #expect(message.exchange == "notifications.responses")
        #expect(message.routingKey == "red-category")
        #expect(message.redelivered)
    }

    /// Headers as the wire can carry them (FieldTable's own initialisers merge repeated names): each value's width,
    /// the order and a repeated name are kept, and only their JSON form merges them.
    @Test func aDeliverysHeadersAreKeptAsTheyArrived() throws {
        func entry(_ key: String, _ type: Character, _ value: [UInt8]) -> [UInt8] {
            [UInt8(key.utf8.count)] + Array(key.utf8) + [UInt8(ascii: type.unicodeScalars.first!)] + value
        }
        func text(_ value: String) -> [UInt8] { [0, 0, 0, UInt8(value.utf8.count)] + Array(value.utf8) }
        let entries = entry("cloudEvents_id", "S", text("a")) + entry("x-other", "b", [1])
            + entry("cloudEvents_id", "S", text("b")) + entry("x-other", "s", [0, 2])
        let headers = try #require(FieldTable(wire: [0, 0, 0, UInt8(entries.count)] + entries))
        let delivery = AMQPDelivery(
            body: [], properties: MessageProperties(headers: headers), exchange: "e", routingKey: "k", redelivered: false,
            deliveryTag: 1, consumerTag: "c")
        let properties = InboundMessage(delivery).properties
        #expect(properties.headers.map(\.value) == [.string("a"), .int8(1), .string("b"), .int16(2)])
        #expect(properties.jsonHeaders == ["cloudEvents_id": .array([.string("a"), .string("b")]), "x-other": .integer(2)])
    }
}
