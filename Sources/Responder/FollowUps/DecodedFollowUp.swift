/// An input message that brings a follow-up back from its delay queue. It only names the follow-up and its
/// notification: whether there is anything to do is read from the store, so a forged one does nothing.
public struct DecodedFollowUp: Sendable {
    /// The message as it arrived.
    public var message: InboundMessage
    /// The follow-up's id (``FollowUp/id``).
    public var id: String
    /// The notification it belongs to: the key of its state and of its ordering.
    public var requestIdentifier: String
}
