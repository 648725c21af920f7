import AMQP
import Foundation
import ResponderIntake
import ResponderWorker
import ResponderWorkerTesting

/// A topology of one test's own, so tests run side by side on one broker without taking each other's messages.
public struct TestTopology: Sendable {
    /// The names and shapes, every name prefixed with the test's id.
    public let topology: Topology
    public let prefix: String

    /// A fresh set of names; `retryDelays` and `followUpDelays` (milliseconds) are short so retry and follow-up tests
    /// finish quickly. `shards` above 0 is ordered mode.
    public init(
        _ label: String = "t", retryDelays: [Int] = [1, 1, 1], followUpDelays: [Int] = [200, 1000], deliveryLimit: Int = 5,
        outputQueueType: QueueType = .classic, shards: Int = 0
    ) {
        prefix = "\(label)-\(UUID().uuidString.prefix(8).lowercased())"
        var topology = Topology.ofTest(prefix)
        topology.retryDelays = retryDelays
        topology.followUpDelays = followUpDelays
        topology.deliveryLimit = deliveryLimit
        topology.outputQueueType = outputQueueType
        topology.shards = shards
        self.topology = topology
    }

    /// The environment that points `responder` at these names.
    public var environment: [String: String] {
        [
            "RESPONDER_INPUT_EXCHANGE": topology.inputExchange,
            "RESPONDER_INPUT_QUEUE": topology.inputQueue,
            "RESPONDER_OUTPUT_EXCHANGE": topology.outputExchange,
            "RESPONDER_OUTPUT_QUEUE": topology.outputQueue,
            "RESPONDER_DEAD_LETTER_EXCHANGE": topology.deadLetterExchange,
            "RESPONDER_DEAD_LETTER_QUEUE": topology.deadLetterQueue,
            "RESPONDER_RETRY_DELAYS": topology.retryDelays.map(String.init).joined(separator: ","),
            "RESPONDER_FOLLOW_UP_DELAYS": topology.followUpDelays.map(String.init).joined(separator: ","),
            "RESPONDER_DELIVERY_LIMIT": String(topology.deliveryLimit),
            "RESPONDER_OUTPUT_QUEUE_TYPE": topology.outputQueueType.rawValue,
            "RESPONDER_SHARDS": String(topology.shards),
        ]
    }

    /// Declares everything, as the worker would, so a test can publish before any worker runs.
    public func declare(on channel: AMQPChannel) async throws {
        try await topology.declare(on: channel)
    }

    /// Deletes this test's exchanges and queues.
    public func delete(on channel: AMQPChannel) async {
        await topology.delete(on: channel)
    }
}
