import Logging
import NotificationEvents
import Responder

/// The sample's app delegate: logs which action reached the app, with the event id and request identifier.
public struct RedGreenAppDelegate: UserNotificationCenterDelegate {
    /// The delegate.
    public init() {}

    /// Logs `ACTION: Default`, `ACTION: Dismiss` or `ACTION: <identifier>`.
    public func didReceive(_ response: NotificationResponse, context: inout DelegateContext) async throws {
        let action =
            switch response.actionIdentifier {
            case .default: "Default"
            case .dismiss: "Dismiss"
            case .custom(let identifier): identifier
            }
        // The context's logger already carries the event id and request identifier.
        context.logger.info("ACTION: \(action)")
    }
}
