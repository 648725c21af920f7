/// What the ``ConnectionStateMachine`` asks the I/O thread to write or announce, in order.
///
/// The I/O thread (``IOLoop``) encodes each into the frames of its pass and writes them together. When one cannot
/// be encoded or written it tells the state machine (``ConnectionStateMachine/callNotSent(on:error:into:)`` for a
/// method librabbitmq could not encode,
/// ``ConnectionStateMachine/finish(_:)`` for a broken connection) and hands the actions it did not get to back to
/// ``ConnectionStateMachine/discard(_:)``.
enum ConnectionAction {
    /// Write the synchronous method on the channel; the broker's reply arrives as a frame.
    case send(ChannelMethod, channel: UInt16)
    /// Write basic.publish and the content of the confirmation's request. With `resolveWhenWritten` (a channel
    /// without publisher confirms) the confirmation succeeds once written; otherwise the state machine tracks it.
    case publish(PublishConfirmation, channel: UInt16, resolveWhenWritten: Bool)
    /// Write basic.ack, basic.nack or basic.reject.
    case settle(Settlement, channel: UInt16)
    /// Reject these deliveries with requeue: nobody takes them any more.
    case requeue(deliveryTags: [UInt64], channel: UInt16)
    /// Answer the broker's basic.cancel with basic.cancel-ok.
    case acceptCancel(consumerTag: String, channel: UInt16)
    /// Answer the broker's channel.close with channel.close-ok.
    case acceptChannelClose(channel: UInt16)
    /// Answer the broker's connection.close with connection.close-ok; the connection ends after it.
    case acceptConnectionClose
    /// Write connection.close, then wait for close-ok (until the I/O thread's close deadline).
    case closeConnection
    /// Tell the connection's ``AMQPConnection/events`` stream.
    case announce(AMQPConnectionEvent)
}
