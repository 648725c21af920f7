/// The deliveries of one consumer, from ``AMQPChannel/consume(queue:consumerTag:exclusive:arguments:)``.
///
/// Iterate it from one task: `for try await delivery in consumer { ...; try channel.ack(deliveryTag: ...) }`.
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
    /// that error is thrown).
    public struct AsyncIterator: AsyncIteratorProtocol {
        // Holding the channel keeps it (and its connection) open while someone iterates.
        let channel: AMQPChannel
        var base: DeliveryStream.AsyncIterator
        /// The rest of the batch the I/O thread handed over, last delivery first, so each leaves it at once.
        private var batch: [AMQPDelivery] = []

        init(channel: AMQPChannel, base: DeliveryStream.AsyncIterator) {
            self.channel = channel
            self.base = base
        }

        /// The next delivery, or `nil` once the consumer was cancelled.
        public mutating func next() async throws(AMQPError) -> AMQPDelivery? {
            if batch.isEmpty {
                guard let next = await base.next() else { return nil }
                try take(consume next)
            }
            return batch.popLast()
        }

        /// The next delivery, or `nil` once the consumer was cancelled; runs in the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(AMQPError) -> AMQPDelivery? {
            if batch.isEmpty {
                guard let next = await base.next(isolation: actor) else { return nil }
                try take(consume next)
            }
            return batch.popLast()
        }

        /// Takes over the I/O thread's batch, which must then be its buffer's only owner: `reverse()` on a shared
        /// buffer copies every delivery in it (their bodies' and properties' references counted again).
        private mutating func take(_ next: consuming Result<[AMQPDelivery], AMQPError>) throws(AMQPError) {
            switch consume next {
            case .success(let deliveries): batch = deliveries
            case .failure(let error): throw error
            }
            batch.reverse()
        }
    }
}
