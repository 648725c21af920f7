/// Everything one processed event changes, written at once.
public struct StateCommit: Sendable, Hashable {
    /// The inbox entry with the event's outputs.
    public var inboxEntry: InboxEntry
    /// The notification as the event left it, or nil when the event did not change it. Its `version` is the one
    /// it was loaded with (0 for a new record): the store writes it with that version plus one, or reports a
    /// conflict if the stored version differs. The entry's `processedAt` is when the notification last changed.
    public var notification: NotificationRecord?
    /// Whether `notification`'s actions differ from the ones it was loaded with; false lets a store leave the
    /// stored actions as they are. True is always correct.
    public var actionsChanged: Bool
    /// Whether `notification`'s handler states replace all the stored ones, as when the notification was replaced or
    /// removed; false lets a store keep the stored states of handlers `notification` has none for.
    public var replacesHandlerStates: Bool

    /// A commit of `inboxEntry` and, if changed, `notification`.
    public init(
        inboxEntry: InboxEntry, notification: NotificationRecord?, actionsChanged: Bool = true,
        replacesHandlerStates: Bool = false
    ) {
        self.inboxEntry = inboxEntry
        self.notification = notification
        self.actionsChanged = actionsChanged
        self.replacesHandlerStates = replacesHandlerStates
    }
}
