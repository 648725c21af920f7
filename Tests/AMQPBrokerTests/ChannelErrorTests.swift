import AMQP
import BrokerHarness
import Testing

@Suite("Channel errors", .enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"))
struct ChannelErrorTests {
    @Test("redeclaring a queue with conflicting arguments gives the 406 error, and the connection is still usable")
    func conflictingRedeclare() async throws {
        let connection = try await Broker.connect()
        let failing = try await connection.openChannel()
        let bystander = try await connection.openChannel()
        let queue = Broker.uniqueName()
        try await failing.declareQueue(queue, durable: false, autoDelete: true, arguments: ["x-message-ttl": 1000])
        let bystanderQueue = try await bystander.declareQueue("", durable: false, exclusive: true).name
        try await bystander.enablePublisherConfirms()
        let consumer = try await bystander.consume(queue: bystanderQueue)
        let collector = DeliveryCollector(consumer)

        await #expect {
            try await failing.declareQueue(queue, durable: false, autoDelete: true, arguments: ["x-message-ttl": 2000])
        } throws: { error in
            guard case .channelClosed(406, let text) = error as? AMQPError else { return false }
            return text.contains("PRECONDITION_FAILED") && text.contains("x-message-ttl")
        }

        #expect(!failing.isOpen)
        #expect(throws: AMQPError.self) { try failing.ack(deliveryTag: 1) }
        #expect(throws: AMQPError.self) { _ = try failing.publishPipelined([1], exchange: "", routingKey: queue) }
        await #expect(throws: AMQPError.self) { try await failing.declareQueue(queue, durable: false, autoDelete: true) }

        #expect(connection.isOpen)
        #expect(bystander.isOpen)
        try await bystander.publish([42], exchange: "", routingKey: bystanderQueue)
        #expect(try await collector.waitFor(1).first?.body == [42])
        #expect(collector.end == nil)

        let fresh = try await connection.openChannel()
        let existing = try await fresh.declareQueue(queue, durable: false, autoDelete: true, passive: true)
        #expect(existing.name == queue)
        try await fresh.deleteQueue(queue)
        await connection.close()
    }

    @Test("a passive declare of a missing queue or exchange closes the channel with 404")
    func passiveDeclareOfMissing() async throws {
        let connection = try await Broker.connect()
        let channel = try await connection.openChannel()
        await #expect {
            try await channel.declareQueue(Broker.uniqueName(), passive: true)
        } throws: { error in
            guard case .channelClosed(404, let text) = error as? AMQPError else { return false }
            return text.contains("NOT_FOUND")
        }
        let other = try await connection.openChannel()
        await #expect {
            try await other.declareExchange(Broker.uniqueName(), type: .fanout, passive: true)
        } throws: { error in
            guard case .channelClosed(404, _) = error as? AMQPError else { return false }
            return true
        }
        try await connection.openChannel().declareExchange("amq.fanout", type: .fanout, passive: true)
        await connection.close()
    }

    @Test("publishing to a missing exchange fails that publish and closes only its channel")
    func publishToMissingExchange() async throws {
        let connection = try await Broker.connect()
        let channel = try await connection.openChannel()
        try await channel.enablePublisherConfirms()
        await #expect {
            try await channel.publish([1], exchange: Broker.uniqueName(), routingKey: "x")
        } throws: { error in
            guard case .channelClosed(404, _) = error as? AMQPError else { return false }
            return true
        }
        #expect(connection.isOpen)
        let other = try await connection.openChannel()
        try await other.declareExchange(Broker.uniqueName(), type: .direct, durable: false, autoDelete: true)
        await connection.close()
    }
}
