import NotificationEvents

/// An input message whose body decoded to a notification-response event: ready to be handled.
///
/// Its message and event live in one shared box: the batch, its lanes and the handlers copy the response several
/// times an event, and a copy is then one reference rather than every string of the message and the event.
public struct DecodedResponse: Sendable {
    private final class Storage: Sendable {
        let message: InboundMessage
        let event: NotificationResponseEvent

        init(message: InboundMessage, event: NotificationResponseEvent) {
            self.message = message
            self.event = event
        }
    }

    private var storage: Storage

    /// The response `event` decoded from `message`.
    public init(message: InboundMessage, event: NotificationResponseEvent) {
        storage = Storage(message: message, event: event)
    }

    /// The message as it arrived.
    public var message: InboundMessage {
        get { storage.message }
        set { storage = Storage(message: newValue, event: storage.event) }
    }

    /// Its event.
    public var event: NotificationResponseEvent {
        get { storage.event }
        set { storage = Storage(message: storage.message, event: newValue) }
    }

    /// The notification the event is about: the key of its state and of its ordering.
    public var requestIdentifier: String { storage.event.data.notification.request.identifier }
}
