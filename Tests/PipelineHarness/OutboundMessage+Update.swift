import NotificationEvents
import Responder

extension OutboundMessage {
    /// The action-set update this message carries.
    public var update: ActionSetUpdateEvent {
        get throws { try EventCodec.decodeActionSetUpdateEvent(body) }
    }
}
