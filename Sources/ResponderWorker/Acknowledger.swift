import AMQP
import Metrics
import Responder
import Synchronization

/// Settles the inputs of one channel: rejects at once; acks what was accepted when asked to (``sendAcks()``), the
/// settled prefix with one `multiple` ack and every input accepted behind one still being handled alone
/// (``AckTracker``: behind inputs that only wait for their confirms, it waits for the next `multiple` ack). Times
/// each acked input from the socket read of its delivery to its ack handed to the connection
/// (`MetricDescription.endToEndDuration`).
final class Acknowledger: Sendable {
    private let channel: AMQPChannel
    private let tracker = Mutex(AckTracker())
    private let endToEnd = Timer(label: MetricDescription.endToEndDuration.name, preferredDisplayUnit: .seconds)

    init(channel: AMQPChannel) {
        self.channel = channel
    }

    /// Records a delivery as it arrives, before anything can settle it.
    func received(_ delivery: AMQPDelivery) {
        tracker.withLock { $0.received(delivery.deliveryTag, arrivalTime: delivery.arrivalTime) }
    }

    /// Records that `tag` was handled and its outputs published: it waits only for their confirms now.
    func confirming(_ tag: UInt64) {
        tracker.withLock { $0.confirming(tag) }
    }

    /// Rejects `tag` without requeueing: the input queue's dead-letter exchange takes the message as the broker
    /// holds it. Sends the acks waiting in the tracker too.
    func deadLetterThroughBroker(_ tag: UInt64) throws(AMQPError) {
        try reject(tag, requeue: false)
    }

    /// Records `tag` accepted, to be acked by the next ``sendAcks()``, or rejects it back to the queue for
    /// redelivery now, with the acks of the inputs that waited for it.
    ///
    /// basic.reject, not basic.nack: an input goes back only when the broker refused one of its outputs, and that
    /// must count against the quorum queue's delivery limit, so an output the broker refuses every time ends in
    /// the dead-letter queue instead of a requeue loop. RabbitMQ up to 4.2 counts both; 4.3 counts only a reject
    /// (a nack there means "not processed", which does not count).
    func settle(_ tag: UInt64, accepted: Bool) throws(AMQPError) {
        guard !accepted else { return tracker.withLock { $0.settled(tag, acked: true) } }
        try reject(tag, requeue: true)
    }

    /// Rejects `tag` and sends the acks waiting in the tracker with it: inputs accepted behind it may wait for it
    /// (AckTracker), and after a requeue no ``sendAcks()`` may follow for this channel.
    private func reject(_ tag: UInt64, requeue: Bool) throws(AMQPError) {
        let sent = try tracker.withLock { tracker throws(AMQPError) in
            try channel.reject(deliveryTag: tag, requeue: requeue)
            tracker.settled(tag, acked: false)
            return try send(tracker.takeAcks())
        }
        time(sent)
    }

    /// Acks the inputs accepted and not yet acked, except those that wait for the confirms of inputs ahead of them
    /// (``AckTracker/takeAcks()``); once it returns, these acks are on their way to the broker.
    func sendAcks() throws(AMQPError) {
        // Under the lock, so acks leave in the order the tracker produced them: a `multiple` ack must not overtake
        // an ack alone of a tag it passes.
        time(try tracker.withLock { tracker throws(AMQPError) in try send(tracker.takeAcks()) })
    }

    /// Hands the acks to the connection; returns when the deliveries they settle were read.
    private func send(_ acks: AckTracker.Acks) throws(AMQPError) -> [ContinuousClock.Instant] {
        if let through = acks.through { try channel.ack(deliveryTag: through, multiple: true) }
        for tag in acks.alone { try channel.ack(deliveryTag: tag, multiple: false) }
        return acks.arrivalTimes
    }

    /// Records the time from each delivery's read to now, once its ack is with the connection (outside the lock).
    private func time(_ arrivalTimes: [ContinuousClock.Instant]) {
        guard !arrivalTimes.isEmpty else { return }
        let now = ContinuousClock.now
        for arrivalTime in arrivalTimes { endToEnd.recordNanoseconds((now - arrivalTime).nanoseconds) }
    }
}
