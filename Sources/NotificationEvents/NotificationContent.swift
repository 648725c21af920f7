/// The visible content of a notification, as `UNNotificationContent`.
public struct NotificationContent: Sendable, Hashable, Codable {
    public var title: String?
    public var subtitle: String?
    public var body: String?
    public var badge: Int?
    /// The sound name; `"default"` for the system sound.
    public var sound: String?
    /// The category that gives the notification its actions; may be empty (no category).
    public var categoryIdentifier: String
    public var threadIdentifier: String?
    public var targetContentIdentifier: String?
    /// App-defined data, as `UNNotificationContent.userInfo`.
    public var userInfo: [String: JSONValue]?

    public init(
        title: String? = nil, subtitle: String? = nil, body: String? = nil, badge: Int? = nil, sound: String? = nil,
        categoryIdentifier: String, threadIdentifier: String? = nil, targetContentIdentifier: String? = nil,
        userInfo: [String: JSONValue]? = nil
    ) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.badge = badge
        self.sound = sound
        self.categoryIdentifier = categoryIdentifier
        self.threadIdentifier = threadIdentifier
        self.targetContentIdentifier = targetContentIdentifier
        self.userInfo = userInfo
    }
}
