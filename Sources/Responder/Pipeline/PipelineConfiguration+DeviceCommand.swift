import Foundation
import NotificationEvents

extension PipelineConfiguration {
    /// The message that tells the push sender what the device must do with the notification of `input` (a
    /// dismissal or a removal, as `Kind` says), caused by `input`, which leaves the notification at `version`.
    func deviceCommand<Kind: DeviceCommandKind>(
        _ kind: Kind.Type, causedBy input: some OutputCause, version: Int64, to exchange: String
    ) -> OutboundMessage {
        deviceCommand(
            kind, requestIdentifier: input.requestIdentifier, categoryIdentifier: input.categoryIdentifier,
            causedBy: input.causationID, message: input.message, time: input.outputTime, version: version, to: exchange)
    }

    /// The message that tells the push sender what the device must do with the notification `requestIdentifier` of
    /// category `categoryIdentifier`, caused by the input `message` whose event is `causationId`, which leaves the
    /// notification at `version`: a response's dismissal or removal, or a lifecycle event's removal.
    ///
    /// Like an action-set update it derives from the input alone and goes to the output exchange `exchange`, routed by
    /// the category identifier, so one consumer sees a notification's updates and commands in one place.
    func deviceCommand<Kind: DeviceCommandKind>(
        _ kind: Kind.Type, requestIdentifier: String, categoryIdentifier: String, causedBy causationId: String,
        message: InboundMessage, time: Date, version: Int64, to exchange: String
    ) -> OutboundMessage {
        let event = CloudEvent<DeviceCommand<Kind>>(
            id: CloudEvent<DeviceCommand<Kind>>.commandID(causedBy: causationId), source: source,
            type: Kind.eventType, time: time, subject: requestIdentifier, datacontenttype: "application/json",
            data: DeviceCommand(
                requestIdentifier: requestIdentifier, categoryIdentifier: categoryIdentifier,
                causationId: causationId, version: version))
        return output(
            event, time: time, causedBy: message, correlationId: causationId, routingKey: categoryIdentifier,
            to: exchange)
    }
}
