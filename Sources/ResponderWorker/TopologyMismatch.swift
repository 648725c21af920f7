import AMQP

/// The broker holds a queue of the topology with other arguments than the worker declares (406 PRECONDITION_FAILED),
/// typically a classic queue where `--output-queue-type quorum` asks for a quorum one. RabbitMQ cannot change a
/// queue's type or arguments in place, and reconnecting cannot cure it, so the worker stops with this error
/// instead of retrying.
public struct TopologyMismatch: Error, Sendable, Hashable, CustomStringConvertible {
    /// The queue the broker refused to redeclare.
    public var queue: String
    /// The broker's reply, which names the argument that differs.
    public var reply: String

    public var description: String {
        "queue \(queue) exists on the broker with other arguments than this worker declares (\(reply)); a queue's "
            + "type cannot change in place: stop the workers, let the queue drain (or move its messages with a shovel), "
            + "delete it, then start the workers, which declare it anew"
    }
}
