/// The `type` attribute of the events of this contract.
public enum EventType {
    /// The input: a user's response to a notification.
    public static let notificationResponse = "notification.response.v1"
    /// The input: a notification request was removed or replaced.
    public static let notificationLifecycle = "notification.lifecycle.v1"
    /// The output: a notification's new action set.
    public static let actionSetUpdated = "notification.actions.updated.v1"
    /// The output: the device must dismiss a notification.
    public static let notificationDismissed = "notification.dismissed.v1"
    /// The output: the device must remove a delivered notification.
    public static let notificationRemoved = "notification.removed.v1"
}
