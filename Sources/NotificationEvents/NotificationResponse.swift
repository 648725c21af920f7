/// What the user did with a notification, as `UNNotificationResponse`; with `userText` set it is the
/// text-input form, as `UNTextInputNotificationResponse`.
///
/// Its description never shows `userText`: typed replies are private to the user.
public struct NotificationResponse: Sendable, Hashable, Codable, CustomStringConvertible {
    public var actionIdentifier: ActionIdentifier
    /// The text the user typed, for a text-input action only.
    public var userText: String?
    public var notification: Notification

    public init(actionIdentifier: ActionIdentifier, userText: String? = nil, notification: Notification) {
        self.actionIdentifier = actionIdentifier
        self.userText = userText
        self.notification = notification
    }

    /// Whether this is the text-input form of a response.
    public var isTextInput: Bool { userText != nil }

    public var description: String {
        "NotificationResponse(action: \(actionIdentifier.rawValue), request: \(notification.request.identifier)"
            + (isTextInput ? ", userText: <redacted>)" : ")")
    }
}
