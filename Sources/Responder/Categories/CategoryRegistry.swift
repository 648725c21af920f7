import Foundation
import NotificationEvents

/// The registered notification categories by identifier, as `UNUserNotificationCenter.setNotificationCategories`
/// leaves them: loaded from a categories file or registered in code.
///
/// A category's actions are the initial action set of each notification of that category; its options decide,
/// among other things, whether a dismiss reaches the app (`NotificationCategory.Option.customDismissAction`).
public struct CategoryRegistry: Sendable, Hashable {
    private var byIdentifier: [String: NotificationCategory]

    /// A registry holding `categories`; a later category replaces an earlier one with the same identifier.
    public init(_ categories: some Sequence<NotificationCategory> = []) {
        byIdentifier = [:]
        for category in categories { register(category) }
    }

    /// The categories of a categories file (`{"categories": [...]}`).
    public init(contentsOf url: URL) throws(CategoriesFileError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CategoriesFileError(path: url.path, reason: "cannot be read: \(error.localizedDescription)")
        }
        do {
            self.init(try EventCodec.decodeCategories(data).categories)
        } catch {
            throw CategoriesFileError(path: url.path, reason: "is not a categories file: \(error)")
        }
    }

    /// Registers `category`, replacing any category with the same identifier.
    public mutating func register(_ category: NotificationCategory) {
        byIdentifier[category.identifier] = category
    }

    /// The category registered under `identifier`, if any.
    public subscript(identifier: String) -> NotificationCategory? {
        byIdentifier[identifier]
    }

    /// Every registered category, by identifier.
    public var all: [NotificationCategory] {
        byIdentifier.values.sorted { $0.identifier < $1.identifier }
    }

    /// The initial action set of a notification of category `identifier`: the category's actions, or none
    /// when no such category is registered (as iOS shows no buttons for an unknown category).
    public func initialActions(forCategory identifier: String) -> [NotificationAction] {
        byIdentifier[identifier]?.actions ?? []
    }

    /// Whether dismisses of notifications of category `identifier` are delivered to the app.
    public func deliversDismiss(forCategory identifier: String) -> Bool {
        byIdentifier[identifier]?.options.contains(.customDismissAction) ?? false
    }
}
