import Foundation
import NotificationEvents

extension PipelineConfiguration {
    /// The message that carries the output event `event`, caused by `input`, to `exchange` with `routingKey`: in
    /// ``outputMode``, with the input's valid trace headers, message-id = the event's id and correlation-id = the
    /// input's id. Every output event goes out in this one shape, whatever its type.
    func message<Payload>(
        carrying event: CloudEvent<Payload>, causedBy input: DecodedResponse, routingKey: String, to exchange: String
    ) -> OutboundMessage {
        var headers = TraceContext.propagated(from: input.message.properties.headers)
        let contentType: String
        let body: [UInt8]
        switch outputMode {
        case .structured:
            contentType = EventContentType.cloudEvents
            body = EventCodec.encode(event)
        case .binary:
            headers.merge(BinaryModeHeaders.headers(of: event)) { trace, _ in trace }
            contentType = EventContentType.json
            body = EventCodec.encode(event.data)
        }
        let properties = MessageProperties(
            contentType: contentType, messageId: event.id, correlationId: input.event.id, type: event.type,
            appId: appID, timestamp: input.outputTimestamp,
            deliveryMode: .persistent, headers: headers)
        return OutboundMessage(exchange: exchange, routingKey: routingKey, body: body, properties: properties)
    }
}

extension DecodedResponse {
    /// The `time` of the outputs this input causes: the event's time, else the notification's date, never the
    /// clock, so the same input always yields the same bytes.
    var outputTime: Date { event.time ?? event.data.notification.date }

    /// ``outputTime`` in whole seconds since 1970, as AMQP's timestamp property carries it.
    var outputTimestamp: Int64 { Int64(outputTime.timeIntervalSince1970.rounded(.down)) }

    /// The routing key of the outputs about this input's notification: its category identifier.
    var categoryIdentifier: String { event.data.notification.request.content.categoryIdentifier }
}
