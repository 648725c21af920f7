import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import ResponderWorker

/// What tests do to the broker besides running the worker: publish fixtures, count and read queues.
public struct QueueProbe: Sendable {
    public let channel: AMQPChannel
    public let topology: TestTopology

    /// A probe on its own connection, with publisher confirms; declares the topology.
    public static func open(_ topology: TestTopology, name: String = #function) async throws -> QueueProbe {
        let connection = try await TestBroker.connect(name: name)
        let channel = try await connection.openChannel()
        try await channel.enablePublisherConfirms()
        try await topology.declare(on: channel)
        return QueueProbe(channel: channel, topology: topology)
    }

    /// The lines of a fixture file, blank lines skipped; lines that are not fixture lines are dropped too.
    public static func lines(of fixture: URL) throws -> [FixtureLine] {
        try String(contentsOf: fixture, encoding: .utf8).split(separator: "\n").compactMap {
            try? EventCodec.decodeFixtureLine(Array($0.utf8))
        }
    }

    /// Publishes fixture lines to this test's input exchange (their recorded routing keys and properties), each
    /// confirmed.
    public func publish(_ lines: [FixtureLine]) async throws {
        var pending: [PublishConfirmation] = []
        for line in lines {
            pending.append(
                try channel.publishPipelined(
                    line.bodyBytes, exchange: topology.topology.inputExchange, routingKey: line.routingKey,
                    properties: line.properties))
        }
        for confirmation in pending { try await confirmation.confirmed() }
    }

    /// Publishes one raw body with the given properties to the input exchange, confirmed.
    public func publish(body: [UInt8], properties: MessageProperties, routingKey: String = "red-category") async throws {
        try await channel.publish(
            body, exchange: topology.topology.inputExchange, routingKey: routingKey, properties: properties)
    }

    /// Messages ready in `queue` (not counting unacknowledged ones).
    public func count(_ queue: String) async throws -> Int {
        Int(try await channel.declareQueue(queue, passive: true).messageCount)
    }

    /// Takes every message from `queue` once `expected` are there (or after `timeout`, whatever is there).
    public func take(_ expected: Int, from queue: String, timeout: Duration = hangGuard) async throws -> [AMQPDelivery] {
        try? await waitFor(timeout: timeout, "\(expected) messages in \(queue)") { try await self.count(queue) >= expected }
        var taken: [AMQPDelivery] = []
        while let message = try await channel.get(queue: queue) {
            try channel.ack(deliveryTag: message.deliveryTag)
            taken.append(message)
        }
        return taken
    }

    /// The updates in the output queue, taken, once `expected` are there.
    public func takeUpdates(_ expected: Int, timeout: Duration = hangGuard) async throws -> [AMQPDelivery] {
        try await take(expected, from: topology.topology.outputQueue, timeout: timeout)
    }

    /// The dead letters, taken, once `expected` are there.
    public func takeDeadLetters(_ expected: Int, timeout: Duration = hangGuard) async throws -> [AMQPDelivery] {
        try await take(expected, from: topology.topology.deadLetterQueue, timeout: timeout)
    }

    /// Why each of `deadLetters` was dead-lettered, with the type and message id of what it carries: what a test
    /// that expects none says when it finds some.
    public static func describe(_ deadLetters: [AMQPDelivery]) -> String {
        deadLetters.map { letter in
            let headers = letter.properties.headers
            let reason = headers[DeadLetterInfo.Header.reason.rawValue]?.stringValue ?? "no reason"
            let detail = headers[DeadLetterInfo.Header.detail.rawValue]?.stringValue ?? ""
            return "\(letter.properties.type ?? "no type") \(letter.properties.messageID ?? "no id"): \(reason): \(detail)"
        }.joined(separator: "; ")
    }

    /// Deletes the test's topology.
    public func cleanUp() async {
        await topology.delete(on: channel)
        await channel.connection.close()
    }
}
