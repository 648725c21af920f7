import Foundation
import NotificationEvents
import Responder

/// Builders for the events and messages the tests feed the pipeline: a response on a photo notification unless
/// told otherwise, as JSON, as an input message, or as a body with a field changed.
public enum Events {
    /// When the responses were sent; fixed, so bodies are the same from run to run.
    public static let start = Date(timeIntervalSince1970: 1_795_165_200)

    /// The response event `id` on notification `request` of `category`, delivered a minute before ``start``.
    public static func response(
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

    /// The lifecycle event `id`: `change` happened to notification `request` (of `category`, delivered at `delivered`,
    /// when the producer says) at `date`.
    public static func lifecycle(
        id: String, request: String = "note-1", change: NotificationLifecycleChange.Change, date: Date = start,
        category: String? = nil, delivered: Date? = nil
    ) -> NotificationLifecycleEvent {
        NotificationLifecycleEvent(
            id: id, source: "/push-sender", type: EventType.notificationLifecycle, time: date, subject: request,
            data: NotificationLifecycleChange(
                requestIdentifier: request, change: change, date: date, categoryIdentifier: category,
                notificationDate: delivered))
    }

    /// The lifecycle `event` as an input message, routed by its request identifier as producers publish it.
    public static func message(_ event: NotificationLifecycleEvent, redelivered: Bool = false) -> InboundMessage {
        var message = message(body: EventCodec.encode(event), redelivered: redelivered)
        message.routingKey = event.data.requestIdentifier
        return message
    }

    /// `event` as an input message.
    public static func message(
        _ event: NotificationResponseEvent, contentType: String? = "application/cloudevents+json",
        headers: [String: JSONValue] = [:], redelivered: Bool = false
    ) -> InboundMessage {
        message(body: EventCodec.encode(event), contentType: contentType, headers: headers, redelivered: redelivered)
    }

    /// `body` as an input message to the input exchange, with the properties given.
    public static func message(
        body: [UInt8], contentType: String? = "application/cloudevents+json", contentEncoding: String? = nil,
        headers: [String: JSONValue] = [:], redelivered: Bool = false
    ) -> InboundMessage {
        InboundMessage(
            exchange: "notifications.responses", routingKey: "photo-category", body: body,
            properties: MessageProperties(
                contentType: contentType, contentEncoding: contentEncoding, messageID: "m", headers: FieldTable(json: headers)),
            redelivered: redelivered)
    }

    /// The JSON object of `event` with `change` applied, as a body (keys sorted, so it is the same from run to run):
    /// for responses the contract refuses. An event always encodes as an object, so this cannot fail.
    public static func body(_ event: NotificationResponseEvent, _ change: (inout [String: Any]) -> Void) -> [UInt8] {
        var object = try! JSONSerialization.jsonObject(with: Data(EventCodec.encode(event))) as! [String: Any]
        change(&object)
        return Array(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }
}
