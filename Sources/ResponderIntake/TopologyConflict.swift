/// The broker holds a topology this worker must not use: a queue with other arguments, an exchange of another type,
/// a missing plugin, or another shard layout. The worker stops with this error instead of reconnecting, since no
/// retry can fix it; ``reason`` says what differs and ``description`` what to do about it.
public struct TopologyConflict: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the broker holds that this worker refuses.
    public enum Reason: Sendable, Hashable {
        /// `queue` exists with other arguments than this worker declares (406 PRECONDITION_FAILED), typically a
        /// classic queue where `--output-queue-type quorum` asks for a quorum one. RabbitMQ cannot change a queue's
        /// type or arguments in place. `reply` is the broker's reply, which names the argument that differs.
        case queueArguments(queue: String, reply: String)
        /// The broker refused another declaration for its shape (406: an exchange of another type).
        case shape(reply: String)
        /// The broker refused the ordered topology's consistent-hash exchange (503): its plugin is not enabled.
        case hashExchangeUnavailable(reply: String)
        /// The shard queues on the broker do not match this worker's `--shards` (or its absence): what differs and
        /// what to do about it.
        case shardLayout(String)
    }

    /// What differs.
    public let reason: Reason

    package init(_ reason: Reason) {
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .queueArguments(let queue, let reply):
            "queue \(queue) exists on the broker with other arguments than this worker declares (\(reply)); a queue's "
                + "type cannot change in place: stop the workers, let the queue drain (or move its messages with a "
                + "shovel), delete it, then start the workers, which declare it anew"
        case .shape(let reply):
            "the broker holds the topology in another shape than this worker's settings declare (\(reply)): "
                + "run with the settings it was declared with, or drain and redeclare it"
        case .hashExchangeUnavailable(let reply):
            "the broker refused the ordered topology (\(reply)): enable the rabbitmq_consistent_hash_exchange plugin"
        case .shardLayout(let detail):
            detail
        }
    }
}
