/// How a consumer settles a delivery.
enum Settlement: Sendable {
    case ack(deliveryTag: UInt64, multiple: Bool)
    case nack(deliveryTag: UInt64, multiple: Bool, requeue: Bool)
    case reject(deliveryTag: UInt64, requeue: Bool)
}
