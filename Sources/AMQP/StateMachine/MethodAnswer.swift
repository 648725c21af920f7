/// The broker's reply to a synchronous channel method (the `-ok` methods), with what this client keeps of it.
enum MethodAnswer {
    case channelOpened
    case channelClosed
    case exchangeDeclared
    case exchangeDeleted
    case queueDeclared(QueueDeclareResult)
    case queueBound
    case exchangeBound
    case queuePurged(messageCount: UInt32)
    case queueDeleted(messageCount: UInt32)
    case qosSet
    case confirmsSelected
    case consuming
    case cancelled
    /// basic.get-ok: a message whose content header and body frames follow.
    case got(AMQPDelivery)
    /// basic.get-empty.
    case gotNothing
    /// A method this client never asks for; `id` is its AMQP method number.
    case other(id: UInt32)
}
