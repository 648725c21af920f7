import NotificationEvents

/// An input message decoded to one of the input events of the contract, ready to be handled: a response, or a
/// lifecycle event about the same notifications, ordered with their responses, or a follow-up a handler scheduled.
///
/// Indirect, so that handing an input from the scheduler to the batch and its handlers copies one reference rather
/// than the message's and the event's dozens of strings.
public indirect enum DecodedInput: Sendable {
    /// A user's response to a notification.
    case response(DecodedResponse)
    /// A notification request was removed or replaced.
    case lifecycle(DecodedLifecycle)
    /// A follow-up came back from its delay queue.
    case followUp(DecodedFollowUp)

    /// The message as it arrived.
    public var message: InboundMessage {
        switch self {
        case .response(let response): response.message
        case .lifecycle(let lifecycle): lifecycle.message
        case .followUp(let followUp): followUp.message
        }
    }

    /// The notification the event is about: the key of its state and of its ordering.
    public var requestIdentifier: String {
        switch self {
        case .response(let response): response.requestIdentifier
        case .lifecycle(let lifecycle): lifecycle.requestIdentifier
        case .followUp(let followUp): followUp.requestIdentifier
        }
    }

    /// The event's source, half of its inbox key.
    public var source: String {
        switch self {
        case .response(let response): response.event.source
        case .lifecycle(let lifecycle): lifecycle.event.source
        case .followUp: FollowUp.inboxSource
        }
    }

    /// The event's id, the other half of its inbox key.
    public var id: String {
        switch self {
        case .response(let response): response.event.id
        case .lifecycle(let lifecycle): lifecycle.event.id
        case .followUp(let followUp): followUp.id
        }
    }

    /// The response event, or nil for a lifecycle event or a follow-up.
    public var responseEvent: NotificationResponseEvent? {
        if case .response(let response) = self { return response.event }
        return nil
    }
}
