import AMQP
import Foundation

/// Everything `responder run` needs besides the handlers and the state store.
public struct WorkerConfiguration: Sendable {
    /// Where the broker is and how to talk to it.
    public var broker: AMQPConfiguration
    /// The names and shapes of the exchanges and queues.
    public var topology = Topology()
    /// How many unacknowledged inputs the broker hands the worker at once (basic.qos).
    public var prefetch: UInt16 = 200
    /// How many notifications are handled at once; events of one notification always run one at a time.
    public var concurrency = 64
    /// Identifies this worker in dead-letter headers and logs.
    public var workerID = WorkerConfiguration.defaultWorkerID
    /// How long to wait between reconnection attempts.
    public var reconnectBackoff = Backoff()
    /// How long to wait between checks of an unavailable state store while the worker is paused.
    public var storeRetryBackoff = Backoff(initial: .seconds(1), maximum: .seconds(30))

    public init(broker: AMQPConfiguration) {
        self.broker = broker
    }

    /// The host name and process id: unique among the workers sharing a queue.
    public static var defaultWorkerID: String {
        "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
    }
}
