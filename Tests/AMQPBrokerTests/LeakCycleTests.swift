import AMQP
import BrokerHarness
import Foundation
import Testing

/// Publish-consume cycles that exercise every allocation on the hot path. `scripts/leak-check` runs this test
/// alone under valgrind with `AMQP_LEAK_CYCLES=10000`; the normal suite runs a few hundred cycles.
@Suite("Publish-consume cycles", .enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"))
struct LeakCycleTests {
    static let cycles = ProcessInfo.processInfo.environment["AMQP_LEAK_CYCLES"].flatMap { Int($0) } ?? 300

    @Test("publish, consume and ack messages with headers, one cycle at a time")
    func publishConsumeCycles() async throws {
        let connection = try await Broker.connect()
        let publisher = try await connection.openChannel()
        let consumerChannel = try await connection.openChannel()
        let queue = try await publisher.declareQueue("", durable: false, exclusive: true).name
        try await publisher.enablePublisherConfirms()
        try await consumerChannel.setPrefetch(10)
        let consumer = try await consumerChannel.consume(queue: queue)

        let received = try await within(.seconds(600)) {
            var iterator = consumer.makeAsyncIterator()
            var count = 0
            for cycle in 0..<Self.cycles {
                let properties = MessageProperties(
                    contentType: "application/cloudevents+json", messageID: "message-\(cycle)-with-a-longer-identifier",
                    deliveryMode: .persistent, headers: ["cycle": .int64(Int64(cycle)), "list": [1, "a"]])
                try await publisher.publish(
                    Array("cycle \(cycle)".utf8), exchange: "", routingKey: queue, properties: properties)
                guard let delivery = try await iterator.next() else { break }
                guard delivery.properties.headers["cycle"]?.intValue == cycle else { break }
                try consumerChannel.ack(deliveryTag: delivery.deliveryTag)
                count += 1
            }
            return count
        }
        #expect(received == Self.cycles)
        try await consumer.cancel()
        await connection.close()
    }
}
