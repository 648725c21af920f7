import AMQP
import BrokerHarness
import Testing

@Suite("Consumers", .enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"))
struct ConsumerTests {
    @Test("with prefetch 10 and no acks, exactly 10 deliveries arrive")
    func prefetch() async throws {
        let (connection, channel, queue) = try await Broker.exclusiveQueue(confirms: true)
        for index in 0..<25 {
            try await channel.publish([UInt8(index)], exchange: "", routingKey: queue)
        }
        try await channel.setPrefetch(10)
        let collector = DeliveryCollector(try await channel.consume(queue: queue))

        let first = try await collector.waitFor(10)
        // Give the broker time to overshoot if it were going to, then check nothing more came.
        try await Task.sleep(for: .milliseconds(500))
        #expect(collector.deliveries.count == 10)
        #expect(first.map(\.body) == (0..<10).map { [UInt8($0)] })
        #expect(try await channel.declareQueue(queue, passive: true).messageCount == 15)

        try channel.ack(deliveryTag: first[9].deliveryTag, multiple: true)
        let second = try await collector.waitFor(20)
        try await Task.sleep(for: .milliseconds(500))
        #expect(collector.deliveries.count == 20)
        #expect(second[10].body == [10])
        await connection.close()
    }

    @Test("cancelling a consumer finishes its sequence normally, whether the client or the broker cancels")
    func cancel() async throws {
        let (connection, channel, queue) = try await Broker.exclusiveQueue()
        let consumer = try await channel.consume(queue: queue, consumerTag: "my-consumer")
        #expect(consumer.consumerTag == "my-consumer")
        let collector = DeliveryCollector(consumer)
        try await channel.publish([1], exchange: "", routingKey: queue)
        try await collector.waitFor(1)
        try await channel.cancel(consumerTag: "my-consumer")
        #expect(try await collector.waitForEnd() == .finished)

        // The broker cancels consumers of a deleted queue (consumer_cancel_notify).
        let doomed = try await channel.declareQueue(Broker.uniqueName(), durable: false, autoDelete: false).name
        let orphan = DeliveryCollector(try await channel.consume(queue: doomed))
        let other = try await connection.openChannel()
        try await other.deleteQueue(doomed)
        #expect(try await orphan.waitForEnd() == .finished)
        #expect(channel.isOpen)
        try await channel.publish([2], exchange: "", routingKey: queue)
        #expect(try await within(hangGuard) { try await channel.get(queue: queue) }?.body == [2])
        await connection.close()
    }

    @Test("closing the channel ends its consumer with closed and requeues what was not acknowledged")
    func closeChannel() async throws {
        let connection = try await Broker.connect()
        let channel = try await connection.openChannel()
        let queue = try await channel.declareQueue(Broker.uniqueName(), durable: false, autoDelete: false).name
        let collector = DeliveryCollector(try await channel.consume(queue: queue))
        try await channel.publish([7], exchange: "", routingKey: queue)
        try await collector.waitFor(1)
        await channel.close()
        #expect(try await collector.waitForEnd() == .failed(.closed))
        #expect(!channel.isOpen)
        #expect(throws: AMQPError.closed) { try channel.ack(deliveryTag: 1) }

        let other = try await connection.openChannel()
        let requeued = try await within(hangGuard) { try await other.get(queue: queue) }
        #expect(requeued?.body == [7])
        #expect(requeued?.redelivered == true)
        try await other.deleteQueue(queue)
        await connection.close()
    }

    @Test("nack requeues, reject without requeue dead-letters through the queue's arguments")
    func settleAndDeadLetter() async throws {
        let connection = try await Broker.connect()
        let channel = try await connection.openChannel()
        let deadLetters = try await channel.declareQueue("", durable: false, exclusive: true).name
        let queue = try await channel.declareQueue(
            "", durable: false, exclusive: true,
            arguments: ["x-dead-letter-exchange": "", "x-dead-letter-routing-key": .string(deadLetters)]
        ).name
        try await channel.setPrefetch(1)
        let collector = DeliveryCollector(try await channel.consume(queue: queue))
        try await channel.publish([9], exchange: "", routingKey: queue, properties: MessageProperties(headers: ["n": 1]))

        let first = try await collector.waitFor(1)[0]
        #expect(first.redelivered == false)
        try channel.nack(deliveryTag: first.deliveryTag, requeue: true)
        let second = try await collector.waitFor(2)[1]
        #expect(second.redelivered == true)
        #expect(second.body == [9])
        try channel.reject(deliveryTag: second.deliveryTag, requeue: false)

        let dead = try #require(try await within(hangGuard) {
            while true {
                if let message = try await channel.get(queue: deadLetters) { return message }
                try await Task.sleep(for: .milliseconds(20))
            }
        })
        #expect(dead.body == [9])
        #expect(dead.properties.headers["n"] == .int64(1))
        let death = dead.properties.headers["x-death"]?.arrayValue?.first?.tableValue
        #expect(death?["reason"]?.stringValue == "rejected")
        #expect(death?["queue"]?.stringValue == queue)
        try channel.ack(deliveryTag: dead.deliveryTag)
        await connection.close()
    }

    @Test("a quorum queue with a delivery limit and a single active consumer can be declared and used")
    func quorumQueue() async throws {
        let connection = try await Broker.connect()
        let channel = try await connection.openChannel()
        let queue = Broker.uniqueName("quorum")
        try await channel.declareQueue(
            queue, durable: true,
            arguments: ["x-queue-type": "quorum", "x-delivery-limit": 5, "x-single-active-consumer": true])
        try await channel.enablePublisherConfirms()
        try await channel.publish([5], exchange: "", routingKey: queue, properties: MessageProperties(deliveryMode: .persistent))
        let collector = DeliveryCollector(try await channel.consume(queue: queue))
        let delivery = try await collector.waitFor(1)[0]
        #expect(delivery.body == [5])
        try channel.ack(deliveryTag: delivery.deliveryTag)
        try await channel.cancel(consumerTag: try #require(collector.deliveries.first).consumerTag)
        #expect(try await channel.deleteQueue(queue) == 0)
        await connection.close()
    }

    @Test("cancelling the task that iterates a consumer cancels the consumer on the broker")
    func abandonedConsumer() async throws {
        let (connection, channel, queue) = try await Broker.exclusiveQueue(confirms: true)
        let consumer = try await channel.consume(queue: queue)
        let iteration = Task {
            for try await _ in consumer {}
        }
        try await Task.sleep(for: .milliseconds(100))
        iteration.cancel()
        _ = try? await iteration.value

        try await within(hangGuard) {
            while try await channel.declareQueue(queue, passive: true).consumerCount > 0 {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        try await channel.publish([3], exchange: "", routingKey: queue)
        #expect(try await within(hangGuard) { try await channel.get(queue: queue) }?.body == [3])
        await connection.close()
    }
}
