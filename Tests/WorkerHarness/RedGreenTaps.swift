import Foundation
import NotificationEvents
import RedGreenExample

/// RedGreen responses built in code, for tests that need long streams of taps or one response with a twist, and
/// the updates the rotation extension owes a run of taps.
public enum RedGreenTaps {
    /// When the responses were sent; fixed, so bodies are the same from run to run.
    public static let start = Date(timeIntervalSince1970: 1_795_165_200)

    /// The response event `id` on notification `request`: a rotate tap unless `action` says otherwise.
    public static func event(
        id: String, request: String, category: String = RedGreen.redCategoryIdentifier,
        action: ActionIdentifier = .custom(RedGreen.rotateActionIdentifier), userText: String? = nil
    ) -> NotificationResponseEvent {
        NotificationResponseEvent(
            id: id, source: "/worker-tests", type: EventType.notificationResponse, time: start, subject: request,
            data: NotificationResponse(
                actionIdentifier: action, userText: userText,
                notification: NotificationEvents.Notification(
                    date: start.addingTimeInterval(-60),
                    request: NotificationRequest(
                        identifier: request,
                        content: NotificationContent(title: "Red", body: "A red square to rotate.", categoryIdentifier: category),
                        trigger: .push))))
    }

    /// `event` as a delivery to `exchange`: routed by its category, persistent, message id = event id.
    public static func line(_ event: NotificationResponseEvent, exchange: String) -> FixtureLine {
        line(body: EventCodec.encode(event), messageID: event.id, routingKey: event.data.notification.request.content.categoryIdentifier, exchange: exchange)
    }

    /// Any body as a delivery to `exchange`, with the properties a producer sets.
    public static func line(
        body: [UInt8], messageID: String, routingKey: String = RedGreen.redCategoryIdentifier, exchange: String,
        contentType: String? = "application/cloudevents+json", headers: [String: JSONValue]? = nil
    ) -> FixtureLine {
        FixtureLine(
            exchange: exchange, routingKey: routingKey,
            properties: FixtureLine.Properties(
                contentType: contentType, messageId: messageID, appId: "worker-tests", deliveryMode: 2, headers: headers),
            bodyBytes: body)
    }

    /// The JSON object of `event` with `change` applied, as a body: for responses the contract refuses.
    public static func body(_ event: NotificationResponseEvent, _ change: (inout [String: Any]) -> Void) throws -> [UInt8] {
        guard var object = try JSONSerialization.jsonObject(with: Data(EventCodec.encode(event))) as? [String: Any] else {
            throw HarnessError("an event did not encode as a JSON object")
        }
        change(&object)
        return Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// `tapsEach` rotate taps on each of `notifications` notifications, interleaved round-robin so notifications
    /// are handled side by side. Event ids are `<prefix>-n<notification>-t<tap>` (1-based), requests
    /// `<prefix>-n<notification>`.
    public static func stream(prefix: String, notifications: Int, tapsEach: Int, exchange: String) -> [FixtureLine] {
        (1...tapsEach).flatMap { tap in
            (1...notifications).map { notification in
                line(event(id: tapID(prefix, notification, tap), request: request(prefix, notification)), exchange: exchange)
            }
        }
    }

    /// The request identifier of notification `notification` of a ``stream(prefix:notifications:tapsEach:exchange:)``.
    public static func request(_ prefix: String, _ notification: Int) -> String { "\(prefix)-n\(notification)" }

    /// The event id of tap `tap` on notification `notification` of a stream.
    public static func tapID(_ prefix: String, _ notification: Int, _ tap: Int) -> String {
        "\(prefix)-n\(notification)-t\(tap)"
    }

    /// The taps among `taps` rotate taps in a row on a fresh notification that change its buttons, and whether the
    /// reset button shows after each: the first tap adds it, every ninth (a full turn) removes it, the tap after
    /// adds it again. A tap counted twice or lost shifts this sequence.
    public static func expectedUpdates(taps: Int) -> [(tap: Int, withReset: Bool)] {
        guard taps > 0 else { return [] }
        return (1...taps).compactMap { tap in
            if tap % 9 == 1 { return (tap, true) }
            if tap % 9 == 0 { return (tap, false) }
            return nil
        }
    }
}
