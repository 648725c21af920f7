import AMQP
import BrokerHarness
import Foundation
import Testing

@Suite("Publish and consume round trips", .enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"))
struct RoundTripTests {
    @Test("a publish-consume round trip keeps every property and header type intact")
    func everyPropertyAndHeaderType() async throws {
        let connection = try await Broker.connect()
        let channel = try await connection.openChannel()
        let exchange = Broker.uniqueName("responses")
        try await channel.declareExchange(exchange, type: .topic, durable: false, autoDelete: true)
        let queue = try await channel.declareQueue("", durable: false, exclusive: true, autoDelete: true).name
        try await channel.bindQueue(queue, exchange: exchange, routingKey: "response.#")
        try await channel.enablePublisherConfirms()

        let headers: FieldTable = [
            "string": "grüße",
            "bool": true,
            "int8": .int8(-8), "int16": .int16(-16), "int32": .int32(-32), "int64": .int64(-64),
            "uint8": .uint8(8), "uint16": .uint16(16), "uint32": .uint32(32),
            "float": .float(1.25), "double": .double(-2.5e100),
            "decimal": .decimal(scale: 3, value: 1_234_567),
            "timestamp": .timestamp(1_700_000_123), "timestamp-max": .timestamp(.max),
            "bytes": .bytes([0, 0xFF, 0x7F, 0x80]),
            "void": .void,
            "array": [1, "two", [true, .void], ["in-array": .double(0.5)]],
            "table": ["nested": ["deeper": .int32(7), "list": [.uint8(1), .bytes([2])]], "empty": [:]],
            "empty-array": [],
        ]
        let properties = MessageProperties(
            contentType: "application/cloudevents+json", contentEncoding: "identity", messageID: "message-1",
            correlationID: "correlation-1", type: "notification.response", appID: "amqp-tests", timestamp: 1_700_000_000,
            deliveryMode: .persistent, headers: headers, priority: 5, replyTo: "reply-queue", expiration: "600000",
            userID: "guest")
        let body = Array("{\"specversion\":\"1.0\"}".utf8)

        let consumer = try await channel.consume(queue: queue)
        try await channel.publish(body, exchange: exchange, routingKey: "response.tapped", properties: properties)

        let delivery = try await within(hangGuard) {
            var iterator = consumer.makeAsyncIterator()
            return try await iterator.next()
        }
        let received = try #require(delivery)
        #expect(received.body == body)
        #expect(received.properties == properties)
        #expect(received.properties.headers["table"]?.tableValue?["nested"]?.tableValue?["deeper"] == .int32(7))
        #expect(received.exchange == exchange)
        #expect(received.routingKey == "response.tapped")
        #expect(received.consumerTag == consumer.consumerTag)
        #expect(received.redelivered == false)
        #expect(received.deliveryTag == 1)
        try channel.ack(deliveryTag: received.deliveryTag)
        await connection.close()
    }

    @Test("a 1 MiB body crosses frame boundaries intact")
    func largeBody() async throws {
        let (connection, channel, queue) = try await Broker.exclusiveQueue(confirms: true)
        var generator = SystemRandomNumberGenerator()
        let body = (0..<(1 << 20)).map { _ in UInt8.random(in: .min ... .max, using: &generator) }

        try await channel.publish(body, exchange: "", routingKey: queue)
        let consumer = try await channel.consume(queue: queue)
        let delivery = try await within(hangGuard) {
            var iterator = consumer.makeAsyncIterator()
            return try await iterator.next()
        }
        #expect(delivery?.body.count == body.count)
        #expect(delivery?.body == body)

        try channel.ack(deliveryTag: try #require(delivery).deliveryTag)
        try await consumer.cancel()
        try await channel.publish(body, exchange: "", routingKey: queue)
        let fetched = try await channel.get(queue: queue)
        #expect(fetched?.body == body)
        await connection.close()
    }

    @Test("basic.get returns nil for an empty queue and a message with its tag otherwise")
    func get() async throws {
        let (connection, channel, queue) = try await Broker.exclusiveQueue()
        #expect(try await channel.get(queue: queue) == nil)

        try await channel.publish([1, 2, 3], exchange: "", routingKey: queue, properties: MessageProperties(messageID: "m"))
        let message = try #require(try await within(hangGuard) { try await channel.get(queue: queue) })
        #expect(message.body == [1, 2, 3])
        #expect(message.properties.messageID == "m")
        #expect(message.routingKey == queue)
        #expect(message.consumerTag == "")
        try channel.ack(deliveryTag: message.deliveryTag)
        #expect(try await channel.get(queue: queue) == nil)
        #expect(try await channel.declareQueue(queue, durable: false, exclusive: true, passive: true).messageCount == 0)
        await connection.close()
    }
}
