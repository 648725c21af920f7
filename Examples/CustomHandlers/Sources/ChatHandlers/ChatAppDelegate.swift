import NotificationEvents
import Responder

/// The app tier: opens, dismisses, and the replies the extension forwards, which it sends through the outbox.
public struct ChatAppDelegate: UserNotificationCenterDelegate {
    /// The delegate.
    public init() {}

    public func didReceive(_ response: NotificationResponse, context: inout DelegateContext) async throws {
        switch response.actionIdentifier {
        case .default:
            context.logger.info("message opened")
        case .dismiss:
            context.logger.info("message dismissed")
        case .custom(let identifier) where context.isForwarded:
            // The reply goes out through the outbox: committed with the notification's state and published after
            // the commit, once, even if the worker crashes in between or the handler runs again. The text is private:
            // log its length at most.
            guard let text = response.userText else { break }
            let reply = ChatReply(inReplyTo: context.requestIdentifier, eventID: context.eventID, text: text)
            context.send(EventCodec.encode(reply), to: Chat.replies, type: ChatReply.type)
            context.logger.info("reply sent", metadata: ["action": "\(identifier)", "characters": "\(text.count)"])
        case .custom(let identifier):
            context.logger.info("action reached the app", metadata: ["action": "\(identifier)"])
        }
    }
}
