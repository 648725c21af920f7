import NotificationEvents

/// What the handlers of one response asked for besides their own state: new buttons, a dismissal or a removal,
/// messages to send.
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

    mutating func setNotificationActions(_ actions: [NotificationAction]) {
        notificationActions = actions
        didSetNotificationActions = true
    }

    mutating func send(_ body: [UInt8], to destination: MessageDestination, contentType: String?, type: String?) {
        sentMessages.append(SentMessage(body, to: destination, contentType: contentType, type: type))
    }
}
