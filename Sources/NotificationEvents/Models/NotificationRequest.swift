/// A request to show a notification, as `UNNotificationRequest`.
public struct NotificationRequest: Sendable, Hashable, Codable, ContractObject {
    /// Unique per notification and never empty; the key of all per-notification state.
    public var identifier: String
    /// What the notification shows.
    public var content: NotificationContent
    /// What delivered the notification, when known.
    public var trigger: NotificationTrigger?

    /// A request for a notification with `content`.
    public init(identifier: String, content: NotificationContent, trigger: NotificationTrigger? = nil) {
        self.identifier = identifier
        self.content = content
        self.trigger = trigger
    }

    private enum CodingKeys: String, CodingKey {
        case identifier, content, trigger
    }

    /// Reads a request; its identifier must not be empty or hold U+0000, since all per-notification state is keyed
    /// by it.
    public init(from decoder: any Decoder) throws {
        try self.init(fields: decoder.container(keyedBy: CodingKeys.self))
    }

    static func read(from tape: JSONTape, at node: Int) throws -> Self {
        try Self(fields: TapeObject(tape: tape, objectAt: node))
    }

    private init(fields container: some ContractFields<CodingKeys>) throws {
        identifier = try container.decodeIdentifier(.identifier)
        content = try container.decode(NotificationContent.self, forKey: .content)
        trigger = try container.decodeIfPresent(NotificationTrigger.self, forKey: .trigger)
    }
}
