/// The deliveries of one consumer, from ``AMQPChannel/consume(queue:consumerTag:exclusive:arguments:)``.
///
/// Iterate it from one task: `for try await delivery in consumer { ...; try channel.ack(deliveryTag: ...) }`, or a
/// batch at a time with ``AsyncIterator/nextBatch(isolation:)``.
/// It finishes normally after a cancel (by this client or the broker) and throws the channel's or connection's
/// error when either closes. Deliveries wait in memory until taken, so set a prefetch on the channel.
/// The consumer keeps its channel, and so its connection, open. Cancel it (or close its channel) when done:
/// dropping it does not stop deliveries.
public struct AMQPConsumer: AsyncSequence, Sendable {
    /// One delivery.
    public typealias Element = AMQPDelivery
    /// Why the sequence ended, when it did not end with a cancel.
    public typealias Failure = AMQPError

    /// The channel the consumer runs on, for settling its deliveries.
    public let channel: AMQPChannel
    /// The consumer's tag on its channel.
    public let consumerTag: String
    private let deliveries: DeliveryStream

    init(channel: AMQPChannel, consumerTag: String, deliveries: DeliveryStream) {
        self.channel = channel
        self.consumerTag = consumerTag
        self.deliveries = deliveries
    }

    /// Cancels the consumer on the broker; the same as ``AMQPChannel/cancel(consumerTag:)``.
    public func cancel() async throws(AMQPError) {
        try await channel.cancel(consumerTag: consumerTag)
    }

    /// The iterator; there is one per consumer.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(channel: channel, base: deliveries.makeAsyncIterator())
    }

    /// Yields deliveries until the consumer is cancelled (then `nil`) or its channel or connection closes (then
    /// that error is thrown), one by one (``next()``) or as many as have arrived at once (``nextBatch()``).
    public struct AsyncIterator: AsyncIteratorProtocol {
        // Holding the channel keeps it (and its connection) open while someone iterates.
        let channel: AMQPChannel
        private var deliveries: DeliveryBatches

        init(channel: AMQPChannel, base: DeliveryStream.AsyncIterator) {
            self.channel = channel
            deliveries = DeliveryBatches(base)
        }

        /// The next delivery, or `nil` once the consumer was cancelled.
        public mutating func next() async throws(AMQPError) -> AMQPDelivery? {
            try await deliveries.next()
        }

        /// The next delivery, or `nil` once the consumer was cancelled; runs in the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(AMQPError) -> AMQPDelivery? {
            try await deliveries.next(isolation: actor)
        }

        /// Every delivery that has arrived and was not taken yet, in order, waiting for one when none has: a
        /// consumer that keeps up takes each read pass of the I/O thread whole. Never empty; `nil` once the
        /// consumer was cancelled.
        public mutating func nextBatch(isolation actor: isolated (any Actor)? = #isolation) async throws(AMQPError) -> [AMQPDelivery]? {
            try await deliveries.nextBatch(isolation: actor)
        }
    }
}
