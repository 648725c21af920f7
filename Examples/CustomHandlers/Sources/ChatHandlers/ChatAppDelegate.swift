import NotificationEvents
import Responder

/// The app tier: opens, dismisses, and the replies the extension forwards.
public struct ChatAppDelegate: UserNotificationCenterDelegate {
    /// The delegate.
    public init() {}

    public func didReceive(_ response: NotificationResponse, context: DelegateContext) async throws {
        switch response.actionIdentifier {
        case .default:
            context.logger.info("message opened")
        case .dismiss:
            context.logger.info("message dismissed")
        case .custom(let identifier) where context.isForwarded:
            // Here the app would send the reply, keyed by context.eventID: a handler may run again for the same
            // response, and a thrown error retries it. The text is private: log its length at most.
            context.logger.info(
                "reply to send", metadata: ["action": "\(identifier)", "characters": "\(response.userText?.count ?? 0)"])
        case .custom(let identifier):
            context.logger.info("action reached the app", metadata: ["action": "\(identifier)"])
        }
    }
}
