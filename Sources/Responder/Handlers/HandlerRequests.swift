import Foundation
import NotificationEvents

/// What the handlers of one response (or follow-up) asked for besides their own state: new buttons, a dismissal or a
/// removal, messages to send, follow-ups.
/// Both tiers' contexts keep it (an extension hands it on to the app delegate it forwards to), and the pipeline turns
/// it into the response's outputs.
struct HandlerRequests: Sendable, Hashable {
    /// The notification's actions, including any set by a handler of this response.
    var notificationActions: [NotificationAction]
    /// Whether a handler set the actions: the pipeline then publishes an action-set update.
    var didSetNotificationActions = false
    /// Whether the app delegate dismissed the notification (an extension answers with its `ResponseOption`).
    var dismissesNotification = false
    /// Whether the app delegate removed the notification: its state ends (a tombstone) and a removal is published.
    var removesNotification = false
    /// The messages handlers sent, in order.
    var sentMessages: [SentMessage] = []
    /// The follow-ups handlers scheduled, in order.
    var followUps: [FollowUpRequest] = []
    /// When the handlers were called: what a follow-up's delay counts from.
    var now = Date()

    mutating func setNotificationActions(_ actions: [NotificationAction]) {
        notificationActions = actions
        didSetNotificationActions = true
    }

    mutating func send(_ body: [UInt8], to destination: MessageDestination, contentType: String?, type: String?) {
        sentMessages.append(SentMessage(body, to: destination, contentType: contentType, type: type))
    }

    mutating func scheduleFollowUp(_ name: String, after delay: Duration, payload: [UInt8]) {
        let delay = max(delay, .zero)
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        followUps.append(
            FollowUpRequest(
                name: name, payload: payload, dueDate: now.addingTimeInterval(seconds), delay: delay, handler: nil))
    }

    mutating func scheduleFollowUp(_ name: String, at date: Date, payload: [UInt8]) {
        followUps.append(
            FollowUpRequest(
                name: name, payload: payload, dueDate: date, delay: .seconds(max(date.timeIntervalSince(now), 0)),
                handler: nil))
    }

    /// Marks the follow-ups scheduled since the last call as `handler`'s: the one whose call just returned.
    mutating func claimFollowUps(for handler: String) {
        for index in followUps.indices where followUps[index].handler == nil { followUps[index].handler = handler }
    }
}
