import Foundation

/// A follow-up a handler scheduled for its notification (``ExtensionContext/scheduleFollowUp(_:after:payload:)``,
/// ``DelegateContext/scheduleFollowUp(_:after:payload:)``), as the handler gets it back when it is due:
/// ``NotificationContentExtension/didReceiveFollowUp(_:context:)``,
/// ``UserNotificationCenterDelegate/didReceiveFollowUp(_:context:)``.
///
/// It is stored with the notification's state and ends with it: a follow-up of a notification that was replaced or
/// removed since never reaches its handler.
public struct FollowUp: Sendable, Hashable, Codable {
    /// `<id of the event that scheduled it>/follow-up-<n>`: unique, and the key of its inbox entry.
    public var id: String
    /// The name the handler gave it, to tell its follow-ups apart.
    public var name: String
    /// The bytes the handler gave it (e.g. JSON of its own), or none.
    public var payload: [UInt8]
    /// When it is due: it reaches the handler then or a little later (the broker's delay queues' precision), never
    /// before.
    public var dueDate: Date

    /// A follow-up with the given contents: for calling a handler's `didReceiveFollowUp(_:context:)` in a unit test.
    public init(id: String = "test-event/follow-up-1", name: String, payload: [UInt8] = [], dueDate: Date = Date()) {
        self.id = id
        self.name = name
        self.payload = payload
        self.dueDate = dueDate
    }

    /// The id of the `number`-th follow-up (from 1) scheduled while handling the event `causationId`, derived from
    /// the event alone, as a sent message's id is.
    static func id(causedBy causationId: String, number: Int) -> String {
        "\(causationId)/follow-up-\(number)"
    }

    /// The CloudEvents `source` a follow-up's inbox entry is kept under. No input may claim it: a producer's event
    /// under it could take a follow-up's inbox entry and so cancel the follow-up.
    public static let inboxSource = "responder:follow-up"
}
