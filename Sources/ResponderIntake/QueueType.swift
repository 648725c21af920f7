/// The RabbitMQ queue type of the queues the worker publishes to: the output queue, the dead-letter queue and the
/// retry queues. (The input queue is always a quorum queue.)
public enum QueueType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A queue on one node: enough on one broker. On a cluster, what it holds is gone while its node is, and
    /// messages confirmed to it then can be lost.
    case classic
    /// A queue replicated on the cluster's nodes (Raft), which outlives the loss of a minority of them; its retry
    /// queues dead-letter at least once, so an expiring retry is not lost in a failover either.
    case quorum
}
