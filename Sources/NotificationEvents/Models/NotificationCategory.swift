/// A kind of notification and its initial actions, as `UNNotificationCategory`.
public struct NotificationCategory: Sendable, Hashable, Codable {
    /// As `UNNotificationCategoryOptions`.
    public enum Option: String, Sendable, Hashable, Codable, CaseIterable, ContractEnum {
        /// Deliver dismiss actions to the app: without it a dismiss is not routed.
        case customDismissAction
        /// Show the category's actions in CarPlay.
        case allowInCarPlay
        /// Show the title when previews are hidden.
        case hiddenPreviewsShowTitle
        /// Show the subtitle when previews are hidden.
        case hiddenPreviewsShowSubtitle
        /// Let Siri read the notification aloud.
        case allowAnnouncement

        /// Reads the raw value; an unknown one is refused with the list of allowed values.
        public init(from decoder: any Decoder) throws { try self.init(contractFrom: decoder) }
    }

    /// Never empty; unique within a categories file.
    public var identifier: String
    /// The initial action set of every notification of this category; identifiers are unique.
    public var actions: [NotificationAction]
    /// The SiriKit intents the category relates to.
    public var intentIdentifiers: [String]
    /// No option appears twice.
    public var options: [Option]

    /// A category and its initial actions.
    public init(
        identifier: String, actions: [NotificationAction], intentIdentifiers: [String] = [], options: [Option] = []
    ) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.options = options
    }

    private enum CodingKeys: String, CodingKey {
        case identifier, actions, intentIdentifiers, options
    }

    /// Reads a category; only the identifier is required (not empty), absent lists are empty, action
    /// identifiers are unique and no option appears twice.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decodeNonEmpty(.identifier)
        actions = try container.decodeActionSet(forKey: .actions, required: false)
        intentIdentifiers = try container.decodeIfPresent([String].self, forKey: .intentIdentifiers) ?? []
        options = try container.decodeUnique([Option].self, forKey: .options, item: "option")
    }
}
