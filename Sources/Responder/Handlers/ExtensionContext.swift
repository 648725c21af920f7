import Logging
import NotificationEvents

/// What a ``NotificationContentExtension`` sees of the notification it handles a response of, as the extension
/// context of `UNNotificationContentExtension`: its current actions, which it may replace, and its own state.
public struct ExtensionContext<State: Codable & Sendable>: Sendable {
    /// The id of the event being handled.
    public var eventID: String { log.eventID }
    /// The notification's request identifier.
    public var requestIdentifier: String { log.requestIdentifier }
    /// A logger carrying the event id, request identifier, category and action as metadata; made on each read
    /// (so a handler that does not log pays nothing for it): keep a copy to log many lines.
    public var logger: Logger {
        get { loggerSet ?? log.logger }
        set { loggerSet = newValue }
    }
    private let log: ResponseLog
    private var loggerSet: Logger?
    /// The extension's state for this notification; changes are kept when the handler returns normally.
    public var state: State

    /// The notification's current actions (`getNotificationActions`), including any set during this call.
    public private(set) var notificationActions: [NotificationAction]

    /// Whether ``setNotificationActions(_:)`` was called during this call: the pipeline then publishes an
    /// action-set update with ``notificationActions``.
    public private(set) var didSetNotificationActions = false

    init(log: ResponseLog, state: State, notificationActions: [NotificationAction]) {
        self.log = log
        self.state = state
        self.notificationActions = notificationActions
    }

    /// The context an extension gets for `response`, handled as the event `eventID`, on a notification whose
    /// actions are `notificationActions` and whose state for this extension is `state`: for calling
    /// `didReceive(_:context:)` directly in a unit test. The pipeline builds its own.
    public init(
        response: NotificationResponse, eventID: String = "test-event", state: State,
        notificationActions: [NotificationAction], logger: Logger = Logger(label: "responder.test")
    ) {
        self.init(
            log: ResponseLog(logger, eventID: eventID, response: response), state: state,
            notificationActions: notificationActions)
    }

    /// Replaces the notification's actions (`setNotificationActions`); the last call wins, and the whole new
    /// set is published as one action-set update.
    public mutating func setNotificationActions(_ actions: [NotificationAction]) {
        notificationActions = actions
        didSetNotificationActions = true
    }
}
