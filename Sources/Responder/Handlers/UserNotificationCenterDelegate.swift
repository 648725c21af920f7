import Logging
import NotificationEvents

/// The app tier, as `UNUserNotificationCenterDelegate.userNotificationCenter(_:didReceive:withCompletionHandler:)`.
///
/// It receives default actions, dismiss actions (only of categories registered with
/// `NotificationCategory.Option.customDismissAction`), custom actions of categories that have no extension,
/// and custom actions an extension forwarded with `ResponseOption.dismissAndForwardAction`.
///
/// Like an extension it may run more than once for the same response; keep its side effects idempotent.
public protocol UserNotificationCenterDelegate: Sendable {
    /// Handles a response. It may read and set the notification's actions, dismiss it, and send messages to declared
    /// destinations through `context`; nothing it recorded there is kept when it throws. Throw ``PermanentFailure``
    /// when retrying cannot help; any other error is retried. Never put the response's `userText` into an error or a
    /// log message.
    func didReceive(_ response: NotificationResponse, context: inout DelegateContext) async throws

    /// Handles a follow-up the app tier scheduled (``DelegateContext/scheduleFollowUp(_:after:payload:)``) when it is
    /// due, with the notification's actions at that time: it may set them, dismiss or remove the notification, send
    /// messages and schedule more follow-ups, as for a response. Nothing is kept when this throws. The default does
    /// nothing.
    func didReceiveFollowUp(_ followUp: FollowUp, context: inout DelegateContext) async throws
}

extension UserNotificationCenterDelegate {
    /// Does nothing: a delegate that schedules no follow-ups needs no handler for them.
    public func didReceiveFollowUp(_ followUp: FollowUp, context: inout DelegateContext) async throws {}
}
