/// The broker's answer to a ``ChannelMethod``, copied out of librabbitmq's memory.
enum MethodReply: Sendable {
    case done
    case queueDeclared(QueueDeclareResult)
    case messageCount(UInt32)
    case got(AMQPDelivery?)
}
