import AMQP
import BrokerHarness
import Testing

@Suite("Publishing with publisher confirms", .enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"))
struct PublishTests {
    @Test("10,000 pipelined publishes are all confirmed")
    func pipelinedPublishes() async throws {
        let (connection, channel, queue) = try await Broker.exclusiveQueue(confirms: true)

        let confirmations = try (0..<10_000).map { index in
            try channel.publishPipelined(
                Array("message \(index)".utf8), exchange: "", routingKey: queue,
                properties: MessageProperties(deliveryMode: .persistent))
        }
        try await within(hangGuard) {
            for confirmation in confirmations {
                try await confirmation.confirmed()
            }
        }
        #expect(try await channel.declareQueue(queue, passive: true).messageCount == 10_000)
        await connection.close()
    }

    @Test("a burst of publishes larger than the socket's buffers crosses a slow network whole")
    func burstThroughSlowNetwork() async throws {
        try await publishBurstThroughSlowNetwork(try TestBroker.configuration())
    }

    @Test("a mandatory publish to an unroutable key reports the return, and only for that publish")
    func mandatoryReturn() async throws {
        let (connection, channel, queue) = try await Broker.exclusiveQueue(confirms: true)

        await #expect(throws: AMQPError.returned(replyCode: 312, replyText: "NO_ROUTE")) {
            try await channel.publish([1], exchange: "amq.direct", routingKey: Broker.uniqueName(), mandatory: true)
        }

        let routed = try channel.publishPipelined([2], exchange: "", routingKey: queue, mandatory: true)
        let unroutable = try channel.publishPipelined([3], exchange: "", routingKey: Broker.uniqueName(), mandatory: true)
        let notMandatory = try channel.publishPipelined([4], exchange: "", routingKey: Broker.uniqueName())
        let routedAgain = try channel.publishPipelined([5], exchange: "", routingKey: queue, mandatory: true)
        try await routed.confirmed()
        await #expect(throws: AMQPError.returned(replyCode: 312, replyText: "NO_ROUTE")) {
            try await unroutable.confirmed()
        }
        try await notMandatory.confirmed()
        try await routedAgain.confirmed()
        #expect(try await channel.declareQueue(queue, passive: true).messageCount == 2)
        #expect(connection.isOpen && channel.isOpen)
        await connection.close()
    }

    @Test("a publish the broker refuses fails with nacked")
    func nack() async throws {
        let (connection, channel, queue) = try await Broker.exclusiveQueue(
            confirms: true, arguments: ["x-max-length": 1, "x-overflow": "reject-publish"])
        try await channel.publish([1], exchange: "", routingKey: queue)
        await #expect(throws: AMQPError.nacked) {
            try await channel.publish([2], exchange: "", routingKey: queue)
        }
        #expect(try await channel.get(queue: queue)?.body == [1])
        await connection.close()
    }

    @Test("without publisher confirms, a publish returns once written and the message arrives")
    func withoutConfirms() async throws {
        let (connection, channel, queue) = try await Broker.exclusiveQueue()
        for index in 0..<100 {
            try await channel.publish([UInt8(index)], exchange: "", routingKey: queue)
        }
        let consumer = try await channel.consume(queue: queue)
        let collector = DeliveryCollector(consumer)
        let bodies = try await collector.waitFor(100).map(\.body)
        #expect(bodies == (0..<100).map { [UInt8($0)] })
        await connection.close()
    }
}
