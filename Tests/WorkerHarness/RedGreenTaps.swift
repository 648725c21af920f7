import Foundation
import NotificationEvents
import RedGreenExample
import Responder

/// RedGreen responses built in code, for tests that need long streams of taps or one response with a twist, and
/// the updates the rotation extension owes a run of taps.
public enum RedGreenTaps {
    /// The response event `id` on notification `request`: a rotate tap on a red notification unless told otherwise.
    public static func event(
        id: String, request: String, category: String = RedGreen.redCategoryIdentifier,
        action: ActionIdentifier = .custom(RedGreen.rotateActionIdentifier), userText: String? = nil
    ) -> NotificationResponseEvent {
        Events.response(id: id, request: request, category: category, action: action, userText: userText)
    }

    /// A response `id` with `action` on notification `request`, as the input message the pipeline takes.
    public static func message(
        _ id: String, _ action: String, request: String = "red-1", category: String = RedGreen.redCategoryIdentifier
    ) -> InboundMessage {
        Events.message(event(id: id, request: request, category: category, action: ActionIdentifier(rawValue: action)))
    }

    /// The action identifiers of each update an outcome carries.
    public static func actionSets(_ outcome: ResponseOutcome) throws -> [[String]] {
        try outcome.outputs.map { try $0.update.data.actions.map(\.identifier) }
    }

    /// `event` as a delivery to `exchange`: routed by its category, persistent, message id = event id.
    public static func line(_ event: NotificationResponseEvent, exchange: String) -> FixtureLine {
        line(body: EventCodec.encode(event), messageID: event.id, routingKey: event.data.notification.request.content.categoryIdentifier, exchange: exchange)
    }

    /// Any body as a delivery to `exchange`, with the properties a producer sets.
    public static func line(
        body: [UInt8], messageID: String, routingKey: String = RedGreen.redCategoryIdentifier, exchange: String,
        contentType: String? = "application/cloudevents+json", headers: [String: JSONValue] = [:]
    ) -> FixtureLine {
        FixtureLine(
            exchange: exchange, routingKey: routingKey,
            properties: MessageProperties(
                contentType: contentType, messageID: messageID, appID: "worker-tests", deliveryMode: .persistent,
                headers: FieldTable(json: headers)),
            bodyBytes: body)
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
