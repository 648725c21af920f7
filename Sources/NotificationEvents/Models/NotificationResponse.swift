/// What the user did with a notification, as `UNNotificationResponse`; with `userText` set it is the
/// text-input form, as `UNTextInputNotificationResponse`.
///
/// Its description never shows `userText`: typed replies are private to the user.
public struct NotificationResponse: Sendable, Hashable, Codable, CustomStringConvertible, ContractObject {
    /// The action the user took.
    public var actionIdentifier: ActionIdentifier
    /// The text the user typed, for a text-input action only.
    public var userText: String?
    /// The notification the user responded to.
    public var notification: Notification

    /// A response; with `userText` it is the text-input form.
    public init(actionIdentifier: ActionIdentifier, userText: String? = nil, notification: Notification) {
        self.actionIdentifier = actionIdentifier
        self.userText = userText
        self.notification = notification
    }

    private enum CodingKeys: String, CodingKey {
        case actionIdentifier, userText, notification
    }

    /// Reads a response; only a custom action can carry `userText` (the built-in default and dismiss actions
    /// have no text field).
    public init(from decoder: any Decoder) throws {
        try self.init(fields: decoder.container(keyedBy: CodingKeys.self))
    }

    static func read(from tape: JSONTape, at node: Int) throws -> Self {
        try Self(fields: TapeObject(tape: tape, objectAt: node))
    }

    private init(fields container: some ContractFields<CodingKeys>) throws {
        actionIdentifier = try container.decode(ActionIdentifier.self, forKey: .actionIdentifier)
        userText = try container.decodeIfPresent(String.self, forKey: .userText)
        notification = try container.decode(Notification.self, forKey: .notification)
        if userText != nil, actionIdentifier == .default || actionIdentifier == .dismiss {
            throw container.violation(.userText, "not allowed for the default or dismiss action")
        }
    }

    /// Whether this is the text-input form of a response.
    public var isTextInput: Bool { userText != nil }

    public var description: String {
        "NotificationResponse(action: \(actionIdentifier.rawValue), request: \(notification.request.identifier)"
            + (isTextInput ? ", userText: <redacted>)" : ")")
    }
}
