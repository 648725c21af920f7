import NotificationEvents

extension PipelineConfiguration {
    /// The message that publishes what a handler sent, the `number`-th (from 1) of the response to `input`: to its
    /// declared destination, with message-id `<input id>/sent-<number>`, correlation-id the input's id, the input's
    /// valid trace headers, and a timestamp from the input, never the clock, so the same input yields the same message.
    func sentMessage(_ message: SentMessage, number: Int, causedBy input: some OutputCause) -> OutboundMessage {
        let properties = MessageProperties(
            contentType: message.contentType, messageID: SentMessage.messageID(causedBy: input.causationID, number: number),
            correlationID: input.causationID, type: message.type, appID: appID,
            timestamp: input.outputTimestamp, deliveryMode: .persistent,
            headers: TraceContext.propagated(from: input.message.properties.headers))
        return OutboundMessage(
            exchange: message.destination.exchange, routingKey: message.destination.routingKey, body: message.body,
            properties: properties)
    }
}
