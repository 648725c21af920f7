/// The visible content of a notification, as `UNNotificationContent`.
public struct NotificationContent: Sendable, Hashable, Codable, ContractObject {
    /// The headline.
    public var title: String?
    /// The line below the title.
    public var subtitle: String?
    /// The message.
    public var body: String?
    /// The number on the app icon, never negative; 0 removes the badge.
    public var badge: Int?
    /// The sound name; `"default"` for the system sound.
    public var sound: String?
    /// The category that gives the notification its actions; may be empty (no category).
    public var categoryIdentifier: String
    /// Groups related notifications.
    public var threadIdentifier: String?
    /// The app window or content to bring forward.
    public var targetContentIdentifier: String?
    /// App-defined data, as `UNNotificationContent.userInfo`.
    public var userInfo: [String: JSONValue]?

    /// Content of a notification of category `categoryIdentifier`.
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

    private enum CodingKeys: String, CodingKey {
        case title, subtitle, body, badge, sound, categoryIdentifier, threadIdentifier, targetContentIdentifier, userInfo
    }

    /// Reads content; only `categoryIdentifier` is required (it may be empty, and holds no U+0000) and a badge must
    /// not be negative.
    public init(from decoder: any Decoder) throws {
        try self.init(fields: decoder.container(keyedBy: CodingKeys.self))
    }

    static func read(from tape: JSONTape, at node: Int) throws -> Self {
        try Self(fields: TapeObject(tape: tape, objectAt: node))
    }

    private init(fields container: some ContractFields<CodingKeys>) throws {
        title = try container.decodeIfPresent(String.self, forKey: .title)
        subtitle = try container.decodeIfPresent(String.self, forKey: .subtitle)
        body = try container.decodeIfPresent(String.self, forKey: .body)
        badge = try container.decodeIfPresent(Int.self, forKey: .badge, atLeast: 0)
        sound = try container.decodeIfPresent(String.self, forKey: .sound)
        categoryIdentifier = try container.decodeIdentifier(.categoryIdentifier, mayBeEmpty: true)
        threadIdentifier = try container.decodeIfPresent(String.self, forKey: .threadIdentifier)
        targetContentIdentifier = try container.decodeIfPresent(String.self, forKey: .targetContentIdentifier)
        userInfo = try container.decodeIfPresent([String: JSONValue].self, forKey: .userInfo)
    }
}
