import NotificationEvents

/// An input message whose body decoded to a lifecycle event: a notification request was removed or replaced.
public struct DecodedLifecycle: Sendable {
    /// The message as it arrived.
    public var message: InboundMessage
    /// Its event.
    public var event: NotificationLifecycleEvent

    /// The notification the event is about: the key of its state and of its ordering.
    public var requestIdentifier: String { event.data.requestIdentifier }
}
