import Foundation

/// A follow-up a handler scheduled for its notification (``ExtensionContext/scheduleFollowUp(_:after:payload:)``,
/// ``DelegateContext/scheduleFollowUp(_:after:payload:)``), as the handler gets it back when it is due:
/// ``NotificationContentExtension/didReceiveFollowUp(_:context:)``,
/// ``UserNotificationCenterDelegate/didReceiveFollowUp(_:context:)``.
///
/// It is stored with the notification's state and ends with it: a follow-up of a notification that was replaced or
/// removed since never reaches its handler.
public struct FollowUp: Sendable, Hashable, Codable {
    /// `follow-up-` and 64 hex digits (``id(source:causedBy:number:)``): unique, and the key of its inbox entry.
    /// Follow-ups stored before ids had this form keep theirs (`<event id>/follow-up-<n>`).
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

    /// The id of the `number`-th follow-up (from 1) scheduled while handling the event `causationId` of `source` (a
    /// follow-up's own id under ``inboxSource`` when one follow-up schedules the next), derived from them alone, as a
    /// sent message's id is: the SHA-256 of the three, so it has one length however many follow-ups led to it (a
    /// message id holds 255 bytes at most), and two sources' events of one id get two ids.
    public static func id(source: String, causedBy causationId: String, number: Int) -> String {
        // Each part with its length first, so no two triples read as the same bytes.
        let parts = [source, causationId, String(number)].map { "\($0.utf8.count):\($0)" }.joined()
        return idPrefix + SHA256.hash(Array(parts.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `id` has the form ``id(source:causedBy:number:)`` gives, unique per source: ids of the earlier form
    /// (`<event id>/follow-up-<n>`) were the same for two sources' events of one id.
    static func isUniquePerSource(_ id: String) -> Bool {
        // The prefix and a SHA-256 digest (32 bytes) in hex.
        id.utf8.count == idPrefix.utf8.count + 64 && id.hasPrefix(idPrefix)
    }

    private static let idPrefix = "follow-up-"

    /// How far ahead a follow-up may be due, in seconds: a year. A later due date counts as this far from the call
    /// that scheduled it, so every due date is one the notification's stored state can hold.
    public static let horizon: TimeInterval = 365 * 24 * 60 * 60

    /// How many follow-ups one handler call may schedule: 10. More fail the call permanently.
    public static let maxPerCall = 10

    /// How many follow-ups one notification may keep pending: 100. A call that would schedule more fails permanently;
    /// the list is stored with the notification's state and read whole by each of its events.
    public static let maxPending = 100

    /// The largest ``payload`` in bytes: 4 KiB. A larger one fails the call permanently.
    public static let maxPayloadBytes = 4096

    /// The CloudEvents `source` a follow-up's inbox entry is kept under. No input may claim it: a producer's event
    /// under it could take a follow-up's inbox entry and so cancel the follow-up.
    public static let inboxSource = "responder:follow-up"
}
