import Foundation
import NotificationEvents

/// What a store keeps about one notification.
public struct NotificationRecord: Sendable, Hashable {
    /// The notification's request identifier: the key of the record.
    public var requestIdentifier: String
    /// The category of the notification the state is about.
    public var categoryIdentifier: String
    /// The notification's current action set.
    public var actions: [NotificationAction]
    /// Each extension's state as JSON, by extension name.
    public var handlerStates: [String: [UInt8]]
    /// Grows by one with every commit that changes the record; 0 for a record not stored yet.
    public var version: Int64
    /// When the notification the state is about was delivered (its `notification.date`): a response to a notification
    /// delivered earlier is stale, one delivered later replaced it. For a removed notification, the removed delivery's
    /// date (in the device's clock, never the removal's own date): `Date.distantPast` for a pending one never
    /// delivered, nil when the worker never learned it. Nil for a record stored before stores kept it.
    public var notificationDate: Date?
    /// Whether the notification was removed: the record is a tombstone that keeps only the date and the version, so a
    /// late response to the removed notification is stale and the versions of its outputs never go back.
    public var isRemoved: Bool

    /// A record with the given contents.
    public init(
        requestIdentifier: String, categoryIdentifier: String, actions: [NotificationAction],
        handlerStates: [String: [UInt8]] = [:], version: Int64 = 0, notificationDate: Date? = nil,
        isRemoved: Bool = false
    ) {
        self.requestIdentifier = requestIdentifier
        self.categoryIdentifier = categoryIdentifier
        self.actions = actions
        self.handlerStates = handlerStates
        self.version = version
        self.notificationDate = notificationDate
        self.isRemoved = isRemoved
    }
}
