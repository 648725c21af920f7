/// A consumer's deliveries, in batches, and finally its end.
typealias DeliveryStream = AsyncStream<Result<[AMQPDelivery], AMQPError>>
