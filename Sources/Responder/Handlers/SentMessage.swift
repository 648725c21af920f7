/// A message a handler hands its context to send (``ExtensionContext/send(_:to:contentType:type:)``,
/// ``DelegateContext/send(_:to:contentType:type:)``).
///
/// It is committed with the notification's state and the inbox entry, published (with confirms) before the input is
/// acknowledged, and published again as stored, not made again, when the input comes back: it goes out once a
/// committed response, even if the worker crashes between the commit and the publish. A consumer still
/// deduplicates on its message-id, `<input event id>/sent-<n>`, since a crash after the publish and before the
/// acknowledgement publishes it again. Its body stays in the inbox with the entry until the inbox retention ends
/// (`--inbox-retention-hours`): a body that carries a response's `userText` is at rest there for that long.
public struct SentMessage: Sendable, Hashable {
    /// Where it goes: one of the registry's declared destinations.
    public var destination: MessageDestination
    /// The bytes to publish.
    public var body: [UInt8]
    /// The body's media type (the `content-type` property).
    public var contentType: String?
    /// The kind of message (the `type` property), or nil.
    public var type: String?

    /// A message of `body` to `destination`.
    public init(_ body: [UInt8], to destination: MessageDestination, contentType: String? = "application/json", type: String? = nil) {
        self.destination = destination
        self.body = body
        self.contentType = contentType
        self.type = type
    }

    /// The message-id of the `number`-th message (from 1) sent for the input event `causationId`:
    /// `<causationId>/sent-<number>`, derived from the input alone so a republished message keeps it.
    public static func messageID(causedBy causationId: String, number: Int) -> String {
        "\(causationId)/sent-\(number)"
    }
}
