/// The message the chat app sends for a reply typed in a notification: what its chat service reads from
/// ``Chat/replies``. It carries the user's text to the service that delivers it, and nowhere else: no log, no handler
/// state. As every output, the message is kept in the inbox entry of its input until the inbox retention ends, so that
/// a redelivery publishes it again rather than running the handlers twice.
public struct ChatReply: Codable, Sendable, Hashable {
    /// The `type` property of a reply message.
    public static let type = "chat.reply.v1"

    /// The message notification replied to (its request identifier).
    public var inReplyTo: String
    /// The input event that carried the reply: the chat service drops a second message of the same event.
    public var eventID: String
    /// What the user typed.
    public var text: String

    /// A reply of `text` to the message `inReplyTo`, carried by the event `eventID`.
    public init(inReplyTo: String, eventID: String, text: String) {
        self.inReplyTo = inReplyTo
        self.eventID = eventID
        self.text = text
    }
}
