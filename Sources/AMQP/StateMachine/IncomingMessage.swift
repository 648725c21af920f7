/// A message whose method frame arrived and whose content header and body frames are still being read.
struct IncomingMessage {
    /// What the message is for.
    enum Purpose {
        /// basic.deliver to a consumer.
        case delivery
        /// basic.get-ok, answering the channel's pending basic.get.
        case get
        /// basic.return of an unroutable mandatory publish.
        case returned(replyCode: UInt16, replyText: String)
    }

    var purpose: Purpose
    /// Filled in as frames arrive; the body grows to its announced size.
    var delivery: AMQPDelivery
    /// Body bytes still to come, as the content header announced them.
    var remaining: UInt64 = 0
}
