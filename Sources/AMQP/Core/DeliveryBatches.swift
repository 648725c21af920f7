/// Takes a consumer's deliveries off its stream as the I/O thread handed them over: one by one, or a whole read
/// pass at a time.
struct DeliveryBatches {
    private var base: DeliveryStream.AsyncIterator
    /// The rest of the batch the I/O thread handed over, last delivery first, so each leaves it at once.
    private var rest: [AMQPDelivery] = []

    init(_ base: DeliveryStream.AsyncIterator) {
        self.base = base
    }

    /// The next delivery, or `nil` once the stream ended normally.
    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(AMQPError) -> AMQPDelivery? {
        if rest.isEmpty {
            guard let taken = try await nextBatch(isolation: actor) else { return nil }
            rest = taken
            // The batch's only owner now: `reverse()` on a shared buffer would copy every delivery in it.
            rest.reverse()
        }
        return rest.popLast()
    }

    /// What is left of the batch taken last, or else the next batch handed over (waiting for it): never empty;
    /// `nil` once the stream ended normally.
    mutating func nextBatch(isolation actor: isolated (any Actor)? = #isolation) async throws(AMQPError) -> [AMQPDelivery]? {
        if !rest.isEmpty {
            defer { rest = [] }
            return rest.reversed()
        }
        // The I/O thread hands over no empty batch (ConsumerFeed).
        switch await base.next(isolation: actor) {
        case nil: return nil
        case .success(let deliveries): return deliveries
        case .failure(let error): throw error
        }
    }
}
