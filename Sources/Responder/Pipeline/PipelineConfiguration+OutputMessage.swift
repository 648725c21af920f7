import Foundation
import NotificationEvents

extension DecodedResponse {
    /// The `time` of the outputs this input causes: the event's time, else the notification's date, never the
    /// clock, so the same input always yields the same bytes.
    var outputTime: Date { event.time ?? event.data.notification.date }

    /// ``outputTime`` in whole seconds since 1970, as AMQP's timestamp property carries it.
    var outputTimestamp: Int64 { Int64(outputTime.timeIntervalSince1970.rounded(.down)) }

    /// The routing key of the outputs about this input's notification: its category identifier.
    var categoryIdentifier: String { event.data.notification.request.content.categoryIdentifier }
}
