import NotificationEvents

extension PipelineConfiguration {
    /// The message that tells the push sender what the device must do with the notification of `input` (a
    /// dismissal or a removal, as `Kind` says), caused by `input`, which leaves the notification at `version`.
    ///
    /// Like an action-set update it derives from the input alone and goes to the output exchange `exchange`, routed by
    /// the category identifier, so one consumer sees a notification's updates and commands in one place.
    func deviceCommand<Kind: DeviceCommandKind>(
        _ kind: Kind.Type, causedBy input: DecodedResponse, version: Int64, to exchange: String
    ) -> OutboundMessage {
        let event = CloudEvent<DeviceCommand<Kind>>(
            id: CloudEvent<DeviceCommand<Kind>>.commandID(causedBy: input.event.id), source: source,
            type: Kind.eventType, time: input.outputTime, subject: input.requestIdentifier,
            datacontenttype: "application/json",
            data: DeviceCommand(
                requestIdentifier: input.requestIdentifier, categoryIdentifier: input.categoryIdentifier,
                causationId: input.event.id, version: version))
        return output(
            event, time: input.outputTime, causedBy: input.message, correlationId: input.event.id,
            routingKey: input.categoryIdentifier, to: exchange)
    }
}
