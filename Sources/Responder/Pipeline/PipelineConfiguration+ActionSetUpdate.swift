import Foundation
import Messaging
import NotificationEvents

extension PipelineConfiguration {
    /// The message that publishes a notification's new action set, caused by `input`.
    ///
    /// Everything in it derives from the input, never from the clock: the same input always yields the same
    /// bytes, which is what makes replay deterministic and lets consumers deduplicate on the message id.
    /// `version` is the notification's version once the input is committed; `exchange` is the pipeline's output
    /// exchange. ``outputMode`` says whether the event is the body or its attributes are headers.
    func actionSetUpdate(
        causedBy input: some OutputCause, responseOption: ResponseOption, actions: [NotificationAction], version: Int64,
        to exchange: String
    ) -> OutboundMessage {
        let event = ActionSetUpdateEvent(
            id: ActionSetUpdateEvent.id(causedBy: input.causationID), source: source, type: EventType.actionSetUpdated,
            time: input.outputTime, subject: input.requestIdentifier, datacontenttype: "application/json",
            data: ActionSetUpdate(
                requestIdentifier: input.requestIdentifier, categoryIdentifier: input.categoryIdentifier,
                causationId: input.causationID, responseOption: responseOption, actions: actions, version: version))
        return output(
            event, time: input.outputTime, causedBy: input.message, correlationId: input.causationID,
            routingKey: input.categoryIdentifier, to: exchange)
    }

    /// The message of `event`, an output caused by the input `message` (whose event id is `correlationId`), in
    /// ``outputMode``, with the input's trace context, to `exchange` under `routingKey`.
    func output<Payload>(
        _ event: CloudEvent<Payload>, time: Date, causedBy message: InboundMessage, correlationId: String,
        routingKey: String, to exchange: String
    ) -> OutboundMessage {
        var headers = TraceContext.propagated(from: message.properties.headers)
        let contentType: String
        let body: [UInt8]
        switch outputMode {
        case .structured:
            contentType = EventContentType.cloudEvents
            body = EventCodec.encode(event)
        case .binary:
            var json = BinaryModeHeaders.headers(of: event)
            for (name, value) in headers { json[name] = JSONValue(value) }
            headers = FieldTable(json: json)
            contentType = EventContentType.json
            body = EventCodec.encode(event.data)
        }
        let properties = MessageProperties(
            contentType: contentType, messageID: event.id, correlationID: correlationId, type: event.type, appID: appID,
            timestamp: MessageProperties.timestamp(of: time), deliveryMode: .persistent, headers: headers)
        return OutboundMessage(exchange: exchange, routingKey: routingKey, body: body, properties: properties)
    }
}
