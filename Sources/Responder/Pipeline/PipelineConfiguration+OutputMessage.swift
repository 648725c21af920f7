import Foundation
import NotificationEvents

extension DecodedResponse: OutputCause {
    var causationID: String { event.id }

    /// The `time` of the outputs this input causes: the event's time, else the notification's date, never the
    /// clock, so the same input always yields the same bytes.
    var outputTime: Date { event.time ?? event.data.notification.date }

    /// The routing key of the outputs about this input's notification: its category identifier.
    var categoryIdentifier: String { event.data.notification.request.content.categoryIdentifier }
}
