/// The categories file: what `UNUserNotificationCenter.setNotificationCategories` registers.
public struct NotificationCategories: Sendable, Hashable, Codable {
    /// No two categories share an identifier.
    public var categories: [NotificationCategory]

    /// A categories file registering `categories`.
    public init(categories: [NotificationCategory]) {
        self.categories = categories
    }

    private enum CodingKeys: String, CodingKey {
        case categories
    }

    /// Reads a categories file; no two categories may share an identifier.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        categories = try container.decode([NotificationCategory].self, forKey: .categories)
        try container.requireUnique(
            categories, forKey: .categories, by: \.identifier, item: "category identifier", field: "identifier")
    }
}
