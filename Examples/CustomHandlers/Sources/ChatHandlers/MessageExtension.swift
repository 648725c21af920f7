import NotificationEvents
import Responder

/// The extension tier for message notifications: Like turns into Unlike and back, and each reply is counted and
/// shown on the Reply button. Replies are forwarded to the app delegate, which sends them.
public struct MessageExtension: NotificationContentExtension {
    /// What the extension remembers about one notification. The reply text is not part of it.
    public struct State: Codable, Sendable, Hashable {
        /// Whether the user liked the message.
        public var liked = false
        /// How many replies the user sent from this notification.
        public var replies = 0
    }

    /// The key of the state in the store; keep it stable, or stored state is lost.
    public let name = "chat-message"
    /// The category whose custom actions this extension receives.
    public let categoryIdentifiers: Set<String> = [Chat.messageCategoryIdentifier]
    /// Not liked, no replies.
    public let initialState = State()

    /// The extension.
    public init() {}

    public func didReceive(
        _ response: NotificationResponse, context: inout ExtensionContext<State>
    ) async throws -> ResponseOption {
        switch response.actionIdentifier.rawValue {
        case Chat.likeActionIdentifier:
            context.state.liked = true
        case Chat.unlikeActionIdentifier:
            context.state.liked = false
        case Chat.replyActionIdentifier:
            // Count the reply. Its text (response.userText) is private to the user: never log or store it.
            context.state.replies += 1
            context.setNotificationActions(actions(for: context.state))
            // The app delegate sends the reply.
            return .dismissAndForwardAction
        default:
            return .doNotDismiss
        }
        context.setNotificationActions(actions(for: context.state))
        return .doNotDismiss
    }

    /// The buttons of a notification in `state`.
    private func actions(for state: State) -> [NotificationAction] {
        var reply = Chat.replyAction
        if state.replies > 0 { reply.title = "Reply (\(state.replies) sent)" }
        return [reply, state.liked ? Chat.unlikeAction : Chat.likeAction]
    }
}
