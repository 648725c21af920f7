import NotificationEvents

/// Where a response goes, as iOS decides it.
enum Route: Sendable {
    /// To a handler.
    case handler(Receiver)
    /// Nowhere: the response is acknowledged without effect.
    case ignored(why: String)

    /// The tier that receives a routed response.
    enum Receiver: Sendable {
        /// The extension registered for the notification's category (then the app, if the extension forwards).
        case `extension`(AnyContentExtension)
        /// The app delegate.
        case delegate(any UserNotificationCenterDelegate)
    }
}

extension HandlerRegistry {
    /// The tier that receives `response`.
    func route(_ response: NotificationResponse) -> Route {
        let category = response.notification.request.content.categoryIdentifier
        switch response.actionIdentifier {
        case .dismiss:
            guard categories.deliversDismiss(forCategory: category) else {
                return .ignored(why: "dismiss of a category without customDismissAction")
            }
            return toDelegate()
        case .default:
            return toDelegate()
        case .custom:
            if let handler = extensionsByCategory[category] { return .handler(.extension(handler)) }
            return toDelegate()
        }
    }

    private func toDelegate() -> Route {
        guard let delegate else { return .ignored(why: "no app delegate is registered") }
        return .handler(.delegate(delegate))
    }
}

extension HandlerRegistry {
    /// The handler a follow-up was scheduled by, by its name (`delegate` for the app tier), if it is still registered.
    func receiver(named name: String) -> Route.Receiver? {
        if name == HandlerTimeout.delegate { return delegate.map { .delegate($0) } }
        return extensionsByCategory.values.first { $0.name == name }.map { .extension($0) }
    }
}
