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
    /// Why a follow-up a handler asked for cannot be scheduled (a due date that is not a finite time, past a cap of
    /// ``FollowUp``), if one
    /// cannot: the pipeline then fails the input permanently.
    var followUpRefusal: String?
    /// When the handlers were called: what a follow-up's delay counts from.
    var now = Date()

    mutating func setNotificationActions(_ actions: [NotificationAction]) {
        notificationActions = actions
        didSetNotificationActions = true
    }

    mutating func send(_ body: [UInt8], to destination: MessageDestination, contentType: String?, type: String?) {
        sentMessages.append(SentMessage(body, to: destination, contentType: contentType, type: type))
    }

    /// A follow-up due `delay` from now, kept within ``FollowUp/horizon``.
    mutating func scheduleFollowUp(_ name: String, after delay: Duration, payload: [UInt8]) {
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        schedule(name, in: seconds, payload: payload)
    }

    /// A follow-up due at `date`, kept within ``FollowUp/horizon``; a date that is not a finite time is refused.
    mutating func scheduleFollowUp(_ name: String, at date: Date, payload: [UInt8]) {
        let seconds = date.timeIntervalSince(now)
        guard seconds.isFinite else {
            followUpRefusal = "a handler scheduled the follow-up \"\(name)\" at a date that is not a finite time"
            return
        }
        schedule(name, in: seconds, payload: payload)
    }

    /// Clamped to [now, now + horizon]: a due date the stored state could not hold again (outside years 1–9999) or
    /// a delay a `Duration` cannot count would otherwise trap or wipe the notification's pending follow-ups.
    private mutating func schedule(_ name: String, in seconds: Double, payload: [UInt8]) {
        guard followUps.count < FollowUp.maxPerCall, payload.count <= FollowUp.maxPayloadBytes else {
            followUpRefusal =
                "a handler scheduled more than \(FollowUp.maxPerCall) follow-ups in one call, or one (\"\(name)\") with "
                + "a payload over \(FollowUp.maxPayloadBytes) bytes"
            return
        }
        let seconds = min(max(seconds, 0), FollowUp.horizon)
        followUps.append(
            FollowUpRequest(
                name: name, payload: payload, dueDate: now.addingTimeInterval(seconds), delay: .seconds(seconds),
                handler: nil))
    }

    /// Marks the follow-ups scheduled since the last call as `handler`'s: the one whose call just returned.
    mutating func claimFollowUps(for handler: String) {
        for index in followUps.indices where followUps[index].handler == nil { followUps[index].handler = handler }
    }
}
