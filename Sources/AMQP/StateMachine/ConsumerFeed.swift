/// The I/O thread's end of one consumer's delivery stream.
///
/// Deliveries read in one pass are handed over together, so a consumer task that keeps up wakes once per pass
/// instead of once per message.
final class ConsumerFeed {
    private let stream: DeliveryStream.Continuation
    private var batch: [AMQPDelivery] = []

    init(stream: DeliveryStream.Continuation) {
        self.stream = stream
    }

    /// Queues a delivery for the next hand-over; returns whether it is the first since the last hand-over.
    func append(_ delivery: AMQPDelivery) -> Bool {
        batch.append(delivery)
        return batch.count == 1
    }

    /// Hands the queued deliveries over and returns those nobody will take any more (the iteration ended).
    func flush() -> [AMQPDelivery] {
        guard !batch.isEmpty else { return [] }
        let handedOver = batch
        batch = []
        if case .terminated = stream.yield(.success(handedOver)) {
            return handedOver
        }
        return []
    }

    /// Hands over what is queued, then ends the stream: normally after a cancel, else by throwing `error`.
    /// Returns the deliveries nobody will take any more.
    func finish(throwing error: AMQPError?) -> [AMQPDelivery] {
        let unwanted = flush()
        if let error {
            stream.yield(.failure(error))
        }
        stream.finish()
        return unwanted
    }
}
