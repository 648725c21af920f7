import NotificationEvents

extension PipelineConfiguration {
    /// The message that carries the follow-up `id` of the notification `requestIdentifier` down `step` of the
    /// ladder, sent for `cause`: to the step's exchange, routed by the request identifier (so it comes back on the
    /// notification's shard in ordered mode), with message-id the follow-up's id, so a consumer or a person can tell
    /// a republished one, and the cause's valid trace headers.
    func followUpMessage(
        _ id: String, of requestIdentifier: String, to step: FollowUpLadder.Step, causedBy cause: some OutputCause
    ) -> OutboundMessage {
        let properties = MessageProperties(
            contentType: EventContentType.json, messageID: id, correlationID: cause.causationID,
            type: FollowUpMessage.type, appID: appID, timestamp: cause.outputTimestamp, deliveryMode: .persistent,
            headers: TraceContext.propagated(from: cause.message.properties.headers))
        return OutboundMessage(
            exchange: step.exchange, routingKey: requestIdentifier,
            body: EventCodec.encode(FollowUpMessage(followUp: id, requestIdentifier: requestIdentifier)),
            properties: properties)
    }
}
