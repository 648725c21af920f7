import Foundation
import NotificationEvents

/// Responses built in Swift, as a producer would publish them, for tests of handlers.
public enum TestResponse {
    /// When a test notification was delivered, unless a test says otherwise; fixed, so outputs are the same from
    /// run to run.
    public static let delivered = Date(timeIntervalSince1970: 1_795_165_140)

    /// The source of the events a test sends, unless it says otherwise.
    public static let source = "/tests"

    /// A user's `action` on the notification `request` of `category` (typing `userText` for a text-input action),
    /// delivered at `delivered`.
    public static func response(
        _ action: ActionIdentifier, request: String, category: String, userText: String? = nil,
        delivered: Date = TestResponse.delivered
    ) -> NotificationResponse {
        NotificationResponse(
            actionIdentifier: action, userText: userText,
            notification: NotificationEvents.Notification(
                date: delivered,
                request: NotificationRequest(
                    identifier: request, content: NotificationContent(categoryIdentifier: category), trigger: .push)))
    }

    /// `response` as the CloudEvent a producer publishes: event `id` from `source`, sent a minute after delivery.
    public static func event(
        _ response: NotificationResponse, id: String, source: String = TestResponse.source, time: Date? = nil
    ) -> NotificationResponseEvent {
        NotificationResponseEvent(
            id: id, source: source, type: EventType.notificationResponse,
            time: time ?? response.notification.date.addingTimeInterval(60),
            subject: response.notification.request.identifier, data: response)
    }
}
