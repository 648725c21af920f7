import Foundation
import Logging
import NotificationEvents

/// What a ``NotificationContentExtension`` sees of the notification it handles a response of, as the extension
/// context of `UNNotificationContentExtension`: its current actions, which it may replace, its own state, and an
/// outbox for messages of its own.
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
    /// What the extension asked for besides its state.
    private(set) var requests: HandlerRequests

    /// The notification's current actions (`getNotificationActions`), including any set during this call.
    public var notificationActions: [NotificationAction] { requests.notificationActions }

    /// Whether ``setNotificationActions(_:)`` was called during this call: the pipeline then publishes an
    /// action-set update with ``notificationActions``.
    public var didSetNotificationActions: Bool { requests.didSetNotificationActions }

    /// The messages ``send(_:to:contentType:type:)`` was given during this call, in order.
    public var sentMessages: [SentMessage] { requests.sentMessages }

    init(log: ResponseLog, state: State, requests: HandlerRequests) {
        self.log = log
        self.state = state
        self.requests = requests
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
            requests: HandlerRequests(notificationActions: notificationActions))
    }

    /// Replaces the notification's actions (`setNotificationActions`); the last call wins, and the whole new
    /// set is published as one action-set update.
    public mutating func setNotificationActions(_ actions: [NotificationAction]) {
        requests.setNotificationActions(actions)
    }

    /// Hands the outbox `body` to send to `destination`, one the registration declared
    /// (``HandlerRegistry/declare(_:)``): it is committed with the state and published once the commit is done, as
    /// a ``SentMessage`` describes. Nothing is sent when the handler throws. A destination the registry does not
    /// declare fails the response permanently.
    public mutating func send(
        _ body: [UInt8], to destination: MessageDestination, contentType: String? = "application/json",
        type: String? = nil
    ) {
        requests.send(body, to: destination, contentType: contentType, type: type)
    }

    /// The follow-ups ``scheduleFollowUp(_:after:payload:)`` and ``scheduleFollowUp(_:at:payload:)`` were given during
    /// this call, in order: their names.
    public var scheduledFollowUps: [String] { requests.followUps.map(\.name) }

    /// Schedules a follow-up named `name` for this notification, due `delay` from now, carrying `payload`: the
    /// handler that scheduled it gets it back then through `didReceiveFollowUp(_:context:)`, with the notification's
    /// state at that time, once, in order with the notification's other events. It is committed with the state, as a
    /// sent message is, so nothing is scheduled when the handler throws; and it is dropped, never delivered, when the
    /// notification is replaced or removed before it is due. E.g. take a button away if nobody tapped it within ten
    /// minutes.
    public mutating func scheduleFollowUp(_ name: String, after delay: Duration, payload: [UInt8] = []) {
        requests.scheduleFollowUp(name, after: delay, payload: payload)
    }

    /// Schedules a follow-up named `name` for this notification, due at `date` (at once if it is past), as
    /// ``scheduleFollowUp(_:after:payload:)`` does.
    public mutating func scheduleFollowUp(_ name: String, at date: Date, payload: [UInt8] = []) {
        requests.scheduleFollowUp(name, at: date, payload: payload)
    }
}
