import NotificationEvents

/// What a store keeps about one notification.
public struct NotificationRecord: Sendable, Hashable {
    /// The notification's request identifier: the key of the record.
    public var requestIdentifier: String
    /// The category of the notification when it was first stored.
    public var categoryIdentifier: String
    /// The notification's current action set.
    public var actions: [NotificationAction]
    /// Each extension's state as JSON, by extension name.
    public var handlerStates: [String: [UInt8]]
    /// Grows by one with every commit that changes the record; 0 for a record not stored yet.
    public var version: Int64

    /// A record with the given contents.
    public init(
        requestIdentifier: String, categoryIdentifier: String, actions: [NotificationAction],
        handlerStates: [String: [UInt8]] = [:], version: Int64 = 0
    ) {
        self.requestIdentifier = requestIdentifier
        self.categoryIdentifier = categoryIdentifier
        self.actions = actions
        self.handlerStates = handlerStates
        self.version = version
    }
}
