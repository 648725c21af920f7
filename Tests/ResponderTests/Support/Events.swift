import Foundation
import NotificationEvents
import Responder

/// Builders for the events and messages the tests feed the pipeline.
enum Events {
    static let start = Date(timeIntervalSince1970: 1_795_165_200)

    static func response(
        id: String, request: String = "note-1", category: String = "photo-category",
        action: ActionIdentifier = .custom("like-action"), userText: String? = nil, time: Date? = start,
        delivered: Date = start.addingTimeInterval(-60)
    ) -> NotificationResponseEvent {
        NotificationResponseEvent(
            id: id, source: "/tests", type: EventType.notificationResponse, time: time, subject: request,
            data: NotificationResponse(
                actionIdentifier: action, userText: userText,
                notification: NotificationEvents.Notification(
                    date: delivered,
                    request: NotificationRequest(
                        identifier: request,
                        content: NotificationContent(title: "A photo", categoryIdentifier: category),
                        trigger: .push))))
    }

    static func message(
        _ event: NotificationResponseEvent, contentType: String? = "application/cloudevents+json",
        headers: [String: JSONValue] = [:], redelivered: Bool = false
    ) -> InboundMessage {
        message(body: EventCodec.encode(event), contentType: contentType, headers: headers, redelivered: redelivered)
    }

    static func message(
        body: [UInt8], contentType: String? = "application/cloudevents+json", contentEncoding: String? = nil,
        headers: [String: JSONValue] = [:], redelivered: Bool = false
    ) -> InboundMessage {
        InboundMessage(
            body: body,
            properties: MessageProperties(
                contentType: contentType, contentEncoding: contentEncoding, messageId: "m", headers: headers),
            exchange: "notifications.responses", routingKey: "photo-category", redelivered: redelivered)
    }

    /// The JSON object of `event` with `change` applied, as a body.
    static func body(_ event: NotificationResponseEvent, _ change: (inout [String: Any]) -> Void) -> [UInt8] {
        var object = try! JSONSerialization.jsonObject(with: Data(EventCodec.encode(event))) as! [String: Any]
        change(&object)
        return Array(try! JSONSerialization.data(withJSONObject: object))
    }
}

extension ResponseOutcome {
    /// The disposition of a completed outcome, nil otherwise.
    var disposition: Disposition? {
        if case .completed(_, let disposition) = self { return disposition }
        return nil
    }

    /// The reason of a dead-letter outcome, nil otherwise.
    var deadLetterReason: DeadLetterReason? {
        if case .deadLetter(let reason, _) = self { return reason }
        return nil
    }

    /// Whether a failed outcome is retryable; nil when the outcome is not a failure.
    var isRetryableFailure: Bool? {
        if case .failed(_, let retryable) = self { return retryable }
        return nil
    }
}

extension OutboundMessage {
    /// The action-set update this message carries.
    var update: ActionSetUpdateEvent {
        get throws { try EventCodec.decoder.decode(ActionSetUpdateEvent.self, from: Data(body)) }
    }
}
