import NotificationEvents

/// The extension tier, as `UNNotificationContentExtension.didReceive(_:completionHandler:)`: a handler for the
/// custom actions (text input included) of the notifications of its categories.
///
/// It may read the notification's current actions and replace them through its ``ExtensionContext``, and it
/// keeps a ``State`` of its own per notification, which survives restarts when the state store does.
/// It answers each response with a `ResponseOption`; `ResponseOption.dismissAndForwardAction` also hands
/// the response to the app tier (``UserNotificationCenterDelegate``).
///
/// A handler may run more than once for the same response (after a crash before its result was committed,
/// or when another process changed the same notification concurrently); only the run that commits counts.
/// Keep side effects outside the context idempotent.
public protocol NotificationContentExtension: Sendable {
    /// What the extension remembers about one notification; stored as JSON under ``name``.
    associatedtype State: Codable & Sendable

    /// The key the extension's state is stored under; keep it stable across releases, or stored state is lost.
    var name: String { get }

    /// The categories whose custom actions this extension receives (the extension's
    /// `UNNotificationExtensionCategory`). A category has at most one extension.
    var categoryIdentifiers: Set<String> { get }

    /// The state of a notification the extension has not seen yet.
    var initialState: State { get }

    /// Handles a custom action of a notification of one of ``categoryIdentifiers``.
    ///
    /// Throw ``PermanentFailure`` (or any ``HandlerFailure`` whose `isRetryable` is false) when retrying cannot
    /// help; any other error is retried. Nothing the context recorded is kept when this throws.
    /// Never put the response's `userText` into an error or a log message: it is private to the user.
    func didReceive(
        _ response: NotificationResponse, context: inout ExtensionContext<State>
    ) async throws -> ResponseOption

    /// Handles a follow-up this extension scheduled (``ExtensionContext/scheduleFollowUp(_:after:payload:)``) when it
    /// is due, with the notification's state and actions at that time. The context works as for a response: set
    /// actions, send messages, schedule more follow-ups; nothing is kept when this throws, and errors are retried as a
    /// response's are. The default does nothing.
    func didReceiveFollowUp(_ followUp: FollowUp, context: inout ExtensionContext<State>) async throws
}

extension NotificationContentExtension {
    /// Does nothing: an extension that schedules no follow-ups needs no handler for them.
    public func didReceiveFollowUp(_ followUp: FollowUp, context: inout ExtensionContext<State>) async throws {}
}
