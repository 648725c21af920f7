import AMQP
import Synchronization

/// Settles the inputs of one channel: rejects at once, acks in contiguous runs with `multiple`.
final class Acknowledger: Sendable {
    private let channel: AMQPChannel
    private let tracker = Mutex(AckTracker())

    init(channel: AMQPChannel) {
        self.channel = channel
    }

    /// Records a delivery as it arrives, before anything can settle it.
    func received(_ tag: UInt64) {
        tracker.withLock { $0.received(tag) }
    }

    /// Rejects `tag` without requeueing: the input queue's dead-letter exchange takes the message as the broker
    /// holds it.
    func deadLetterThroughBroker(_ tag: UInt64) throws(AMQPError) {
        try tracker.withLock { tracker throws(AMQPError) in
            try channel.reject(deliveryTag: tag, requeue: false)
            if let ackThrough = tracker.settled(tag, acked: false) {
                try channel.ack(deliveryTag: ackThrough, multiple: true)
            }
        }
    }

    /// Acks `tag` (`accepted`) or rejects it back to the queue for redelivery.
    ///
    /// basic.reject, not basic.nack: an input goes back only when the broker refused one of its outputs, and that
    /// must count against the quorum queue's delivery limit, so an output the broker refuses every time ends in
    /// the dead-letter queue instead of a requeue loop. RabbitMQ up to 4.2 counts both; 4.3 counts only a reject
    /// (a nack there means "not processed", which does not count).
    func settle(_ tag: UInt64, accepted: Bool) throws(AMQPError) {
        // Under the lock, so acks leave in the order the tracker produced them.
        try tracker.withLock { tracker throws(AMQPError) in
            if !accepted { try channel.reject(deliveryTag: tag, requeue: true) }
            if let ackThrough = tracker.settled(tag, acked: accepted) {
                try channel.ack(deliveryTag: ackThrough, multiple: true)
            }
        }
    }
}
