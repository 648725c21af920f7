/// A method the broker sent on a channel, as far as this client cares about it.
enum BrokerMethod {
    /// basic.deliver: a message for a consumer; its content header and body frames follow.
    /// The delivery has no properties and no body yet.
    case deliver(AMQPDelivery)
    /// basic.ack: a publisher confirm for sequence number `deliveryTag`, or with `multiple` every one up to it.
    case ack(deliveryTag: UInt64, multiple: Bool)
    /// basic.nack: the broker refused the publish `deliveryTag` (or every one up to it, with `multiple`).
    case nack(deliveryTag: UInt64, multiple: Bool)
    /// basic.return: a mandatory publish came back unroutable; its content follows, then its ack or nack.
    /// The delivery carries the exchange and routing key it was published with.
    case returned(replyCode: UInt16, replyText: String, AMQPDelivery)
    /// basic.cancel: the broker cancelled a consumer (its queue was deleted, for example); unless `noWait`, it
    /// expects basic.cancel-ok.
    case cancel(consumerTag: String, noWait: Bool)
    /// channel.close: the broker closed the channel with this error and expects channel.close-ok.
    case close(AMQPError)
    /// The answer to a synchronous method, or any other method (``MethodAnswer/other(id:)``).
    case answer(MethodAnswer)
}
