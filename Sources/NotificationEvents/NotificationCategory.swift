/// A kind of notification and its initial actions, as `UNNotificationCategory`.
public struct NotificationCategory: Sendable, Hashable, Codable {
    /// As `UNNotificationCategoryOptions`.
    public enum Option: String, Sendable, Hashable, Codable, CaseIterable {
        /// Deliver dismiss actions to the app: without it a dismiss is not routed.
        case customDismissAction
        case allowInCarPlay
        case hiddenPreviewsShowTitle
        case hiddenPreviewsShowSubtitle
        case allowAnnouncement
    }

    public var identifier: String
    /// The initial action set of every notification of this category.
    public var actions: [NotificationAction]
    public var intentIdentifiers: [String]
    public var options: [Option]

    public init(
        identifier: String, actions: [NotificationAction], intentIdentifiers: [String] = [], options: [Option] = []
    ) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.options = options
    }
}

/// The categories file: what `UNUserNotificationCenter.setNotificationCategories` registers.
public struct NotificationCategories: Sendable, Hashable, Codable {
    public var categories: [NotificationCategory]

    public init(categories: [NotificationCategory]) {
        self.categories = categories
    }
}
