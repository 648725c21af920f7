import Foundation
import Logging
import NotificationEvents

/// What the app tier knows about the response it handles besides the response itself, and what it may do: read and
/// replace the notification's actions, dismiss or remove it, and send messages of its own through the outbox.
public struct DelegateContext: Sendable {
    /// The id of the event being handled.
    public var eventID: String { log.eventID }
    /// The notification's request identifier.
    public var requestIdentifier: String { log.requestIdentifier }
    /// Whether an extension forwarded this response with `ResponseOption.dismissAndForwardAction`.
    public let isForwarded: Bool
    /// A logger carrying the event id, request identifier, category and action as metadata; made on each read
    /// (so a handler that does not log pays nothing for it): keep a copy to log many lines.
    public var logger: Logger {
        get { loggerSet ?? log.logger }
        set { loggerSet = newValue }
    }
    private let log: ResponseLog
    private var loggerSet: Logger?
    /// What the handlers of this response asked for so far: the forwarding extension's, then the delegate's.
    private(set) var requests: HandlerRequests

    /// The notification's current actions, including any set by the extension that forwarded the response or during
    /// this call.
    public var notificationActions: [NotificationAction] { requests.notificationActions }

    /// Whether the actions were set for this response (by the forwarding extension or ``setNotificationActions(_:)``):
    /// the pipeline then publishes one action-set update with ``notificationActions``.
    public var didSetNotificationActions: Bool { requests.didSetNotificationActions }

    /// Whether ``dismissNotification()`` was called during this call.
    public var dismissesNotification: Bool { requests.dismissesNotification }

    /// Whether ``removeNotification()`` was called during this call.
    public var removesNotification: Bool { requests.removesNotification }

    /// The messages handed to ``send(_:to:contentType:type:)`` for this response, in order (the forwarding
    /// extension's first).
    public var sentMessages: [SentMessage] { requests.sentMessages }

    init(isForwarded: Bool, log: ResponseLog, requests: HandlerRequests) {
        self.isForwarded = isForwarded
        self.log = log
        self.requests = requests
    }

    /// The context the app tier gets for `response`, handled as the event `eventID`, forwarded by an extension when
    /// `isForwarded`, on a notification whose actions are `notificationActions`: for calling `didReceive(_:context:)`
    /// directly in a unit test. The pipeline builds its own.
    public init(
        response: NotificationResponse, eventID: String = "test-event", isForwarded: Bool = false,
        notificationActions: [NotificationAction] = [], logger: Logger = Logger(label: "responder.test")
    ) {
        self.init(
            isForwarded: isForwarded, log: ResponseLog(logger, eventID: eventID, response: response),
            requests: HandlerRequests(notificationActions: notificationActions))
    }

    /// Replaces the notification's actions; the last call (of the extension or the delegate) wins, and the whole new
    /// set is published as one action-set update.
    public mutating func setNotificationActions(_ actions: [NotificationAction]) {
        requests.setNotificationActions(actions)
    }

    /// Tells the device to dismiss the notification: the response publishes a dismissal (`notification.dismissed.v1`),
    /// after its action-set update if it has one. A forwarded response's extension already dismissed it.
    public mutating func dismissNotification() {
        requests.dismissesNotification = true
    }

    /// Removes the notification, as `removeDeliveredNotifications(withIdentifiers:)` does in the app: the response
    /// publishes a removal (`notification.removed.v1`) instead of an action-set update or a dismissal, the stored state
    /// ends (the notification's handler states and buttons go; its version stays, raised), and a later response to
    /// it is stale, as after a lifecycle event's removal. Messages sent through the outbox still go out.
    public mutating func removeNotification() {
        requests.removesNotification = true
    }

    /// Hands the outbox `body` to send to `destination`, one the registration declared
    /// (``HandlerRegistry/declare(_:)``), as ``ExtensionContext/send(_:to:contentType:type:)`` does.
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
