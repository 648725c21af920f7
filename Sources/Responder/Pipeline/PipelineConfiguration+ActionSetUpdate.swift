import Foundation
import NotificationEvents

extension PipelineConfiguration {
    /// The message that publishes a notification's new action set, caused by `input`.
    ///
    /// Everything in it derives from the input, never from the clock: the same input always yields the same
    /// bytes, which is what makes replay deterministic and lets consumers deduplicate on the message id.
    /// `version` is the notification's version once the input is committed; `exchange` is the pipeline's output
    /// exchange. ``outputMode`` says whether the event is the body or its attributes are headers.
    func actionSetUpdate(
        causedBy input: DecodedResponse, responseOption: ResponseOption, actions: [NotificationAction], version: Int64,
        to exchange: String
    ) -> OutboundMessage {
        let event = ActionSetUpdateEvent(
            id: ActionSetUpdateEvent.id(causedBy: input.event.id), source: source, type: EventType.actionSetUpdated,
            time: input.outputTime, subject: input.requestIdentifier, datacontenttype: "application/json",
            data: ActionSetUpdate(
                requestIdentifier: input.requestIdentifier, categoryIdentifier: input.categoryIdentifier,
                causationId: input.event.id, responseOption: responseOption, actions: actions, version: version))
        return message(carrying: event, causedBy: input, routingKey: input.categoryIdentifier, to: exchange)
    }
}
