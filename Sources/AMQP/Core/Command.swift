/// How the I/O thread answers a caller: called once, on the I/O thread, so it must only resume a continuation.
typealias Reply<Value> = @Sendable (Result<Value, AMQPError>) -> Void

/// Work callers hand to the I/O thread through ``ConnectionCore/submit(_:)``.
enum Command: Sendable {
    /// Open a new channel; the I/O thread picks its number.
    case openChannel(reply: Reply<ChannelLink>)
    /// A synchronous method on a channel (declare, bind, qos, consume, close...), answered by the broker's reply.
    case call(ChannelLink, ChannelMethod, reply: Reply<MethodReply>)
    /// basic.publish, carried by its confirmation, which resolves on the broker's ack (or once written without
    /// publisher confirms).
    case publish(PublishConfirmation)
    /// basic.ack, basic.nack or basic.reject: fire and forget.
    case settle(ChannelLink, Settlement)
    /// The task iterating a consumer was cancelled: cancel it on the broker and requeue what still arrives.
    case abandonConsumer(ChannelLink, tag: String)
    /// Close the connection; `nil` when nobody waits (the connection object went away).
    case closeConnection(reply: Reply<Void>?)
}
