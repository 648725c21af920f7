import AMQP
import Foundation
import ResponderIntake

/// Everything a ``Worker`` needs besides the handlers and the state store. The defaults are the documented ones
/// (the command line's settings take theirs from here).
public struct WorkerConfiguration: Sendable {
    /// Where the broker is and how to talk to it.
    public var broker: AMQPConfiguration
    /// The names and shapes of the exchanges and queues; the output exchange of the updates is taken from here.
    public var topology = Topology()
    /// How many unacknowledged inputs the broker hands the worker at once (basic.qos), across all the queues it
    /// consumes (``consumedQueuePrefetches``).
    public var prefetch: UInt16 = 200
    /// How many notifications are handled at once; events of one notification always run one at a time.
    public var concurrency = 64
    /// Identifies this worker in dead-letter headers and logs.
    public var workerID = WorkerConfiguration.defaultWorkerID
    /// How long to wait between reconnection attempts.
    public var reconnectBackoff = Backoff()
    /// How long to wait between checks of an unavailable state store while the worker is paused.
    public var storeRetryBackoff = Backoff(initial: .seconds(1), maximum: .seconds(30))
    /// Where `/metrics`, `/health/live` and `/health/ready` are served; `nil` serves nothing (for workers embedded
    /// in a process that has its own).
    public var observability: ObservabilityAddress? = ObservabilityAddress()
    /// Ordered mode: how the worker keeps its membership of the fleet, which gives it its share of the shards.
    public var shardLease = ShardLease()
    /// How long a graceful shutdown may take before the remaining services are cancelled.
    public var gracePeriod: Duration = .seconds(25)
    /// Whether SIGTERM and SIGINT shut the worker down gracefully (and a second one exits at once). Off for a
    /// worker embedded in a process that owns its signals; such a worker stops through ``Worker/shutDown()``.
    public var handlesSignals = true

    /// The settings of a worker talking to `broker` (a local broker by default).
    public init(broker: AMQPConfiguration = AMQPConfiguration()) {
        self.broker = broker
    }

    /// The host name and process id: unique among the workers sharing a queue.
    public static var defaultWorkerID: String {
        "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
    }
}
