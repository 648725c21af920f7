/// What a store knows about an event and its notification before the event is handled.
public enum StateSnapshot: Sendable, Hashable {
    /// The event was processed before: these are its outputs.
    case processed([OutboundMessage])
    /// The event is new; this is the notification's record, nil if the notification was never stored.
    case unprocessed(NotificationRecord?)
}
