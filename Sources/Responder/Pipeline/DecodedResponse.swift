import NotificationEvents

/// An input message whose body decoded to a notification-response event: ready to be handled.
public struct DecodedResponse: Sendable {
    /// The message as it arrived.
    public var message: InboundMessage
    /// Its event.
    public var event: NotificationResponseEvent

    /// The notification the event is about: the key of its state and of its ordering.
    public var requestIdentifier: String { event.data.notification.request.identifier }
}
