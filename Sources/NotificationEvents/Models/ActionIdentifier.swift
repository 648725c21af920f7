/// The identifier of the action a user took on a notification, as `UNNotificationResponse.actionIdentifier`.
///
/// The two built-in actions use Apple's string constants; any other string names a custom action of the
/// notification's category.
public enum ActionIdentifier: Sendable, Hashable {
    /// The user opened the app from the notification (`UNNotificationDefaultActionIdentifier`).
    case `default`
    /// The user dismissed the notification (`UNNotificationDismissActionIdentifier`).
    case dismiss
    /// The user chose one of the category's own actions.
    case custom(String)

    /// Apple's `UNNotificationDefaultActionIdentifier`.
    public static let defaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
    /// Apple's `UNNotificationDismissActionIdentifier`.
    public static let dismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

    /// Maps Apple's constants to the built-in cases and anything else to a custom action.
    public init(rawValue: String) {
        switch rawValue {
        case Self.defaultActionIdentifier: self = .default
        case Self.dismissActionIdentifier: self = .dismiss
        default: self = .custom(rawValue)
        }
    }

    /// The identifier as it travels on the wire.
    public var rawValue: String {
        switch self {
        case .default: Self.defaultActionIdentifier
        case .dismiss: Self.dismissActionIdentifier
        case .custom(let identifier): identifier
        }
    }
}

extension ActionIdentifier: Codable {
    /// Reads the identifier as it travels on the wire; it must not be empty or hold U+0000.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let rawValue = try container.decode(String.self)
        guard !rawValue.isEmpty else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "must not be empty") }
        guard !rawValue.unicodeScalars.contains("\u{0}") else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "must not contain U+0000")
        }
        self.init(rawValue: rawValue)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
