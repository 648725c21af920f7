/// How a content extension answers a response, as `UNNotificationContentExtensionResponseOption`.
public enum ResponseOption: String, Sendable, Hashable, Codable, CaseIterable {
    /// Keep the notification on screen.
    case doNotDismiss
    /// Dismiss the notification.
    case dismiss
    /// Dismiss the notification and hand the response on to the app.
    case dismissAndForwardAction
}
