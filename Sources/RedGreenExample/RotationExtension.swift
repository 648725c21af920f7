import NotificationEvents
import Responder

/// The sample's content extension, for both categories: counts the rotate taps of each notification and keeps
/// the reset button in step with the rotation.
public struct RotationExtension: NotificationContentExtension {
    /// What the extension remembers about one notification.
    public struct State: Codable, Sendable, Hashable {
        /// Rotate taps since the notification arrived or was last reset.
        public var taps: Int

        /// A state with `taps` taps.
        public init(taps: Int = 0) {
            self.taps = taps
        }
    }

    /// The key of the taps in the state store.
    public let name = "red-green-rotation"
    /// Both sample categories.
    public let categoryIdentifiers: Set<String> = [RedGreen.redCategoryIdentifier, RedGreen.greenCategoryIdentifier]
    /// No taps.
    public let initialState = State()

    /// The extension.
    public init() {}

    /// On rotate: one more tap; a full turn (every ninth tap) leaves only the first action, the tap after it
    /// adds the reset button. On reset: back to no taps and only the first action. The notification stays.
    public func didReceive(
        _ response: NotificationResponse, context: inout ExtensionContext<State>
    ) async throws -> ResponseOption {
        let firstAction = Array(context.notificationActions.prefix(1))
        switch response.actionIdentifier.rawValue {
        case RedGreen.rotateActionIdentifier:
            context.state.taps += 1
            if context.state.taps % 9 == 0 {
                context.setNotificationActions(firstAction)
            } else if context.state.taps % 9 == 1 {
                context.setNotificationActions(firstAction + [RedGreen.resetAction])
            }
        case RedGreen.resetActionIdentifier:
            context.state.taps = 0
            context.setNotificationActions(firstAction)
        default:
            break
        }
        return .doNotDismiss
    }
}
