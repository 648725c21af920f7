/// What a store knows about an event and its notification before the event is handled.
public enum StateSnapshot: Sendable, Hashable {
    /// The event was processed before: these are its outputs.
    case processed([OutboundMessage])
    /// An event of the same source and id was processed for another notification, the one named: the producer
    /// reused the id. It is not a duplicate, and the stored outputs are that other notification's.
    case idReused(requestIdentifier: String)
    /// The event is new; this is the notification's record, nil if the notification was never stored.
    case unprocessed(NotificationRecord?)
}
