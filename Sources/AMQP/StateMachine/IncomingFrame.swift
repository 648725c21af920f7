/// A frame the broker sent, decoded into Swift values by the I/O thread (``IOLoop``) before the
/// ``ConnectionStateMachine`` sees it, so the protocol logic never touches librabbitmq's structures.
enum IncomingFrame {
    /// connection.close: the broker ends the connection with this error.
    case connectionClose(AMQPError)
    /// connection.close-ok: the broker's answer to this client's connection.close.
    case connectionCloseOK
    /// connection.blocked: the broker stopped reading publishes, for this reason.
    case blocked(reason: String)
    /// connection.unblocked: the broker reads publishes again.
    case unblocked
    /// Any other method on channel 0, which this client does not use; `id` is its AMQP method number.
    case otherConnectionMethod(id: UInt32)
    /// A method on an open (or once open) channel.
    case method(channel: UInt16, BrokerMethod)
    /// A content header: the properties and body size of the message whose method came last on the channel.
    case header(channel: UInt16, properties: MessageProperties, bodySize: UInt64)
    /// A piece of a message body. The bytes stay in librabbitmq's memory: valid only while the frame is handled.
    case body(channel: UInt16, UnsafeRawBufferPointer)
    /// A heartbeat librabbitmq queued while it was writing; its arrival already counted.
    case heartbeat
}
