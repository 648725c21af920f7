import Foundation

/// What the outputs of a handled input derive from, never from the clock, so the same input always yields the same
/// bytes: a response (``DecodedResponse``) or a follow-up that came due.
protocol OutputCause: Sendable {
    /// The id of the event (or follow-up) handled: the outputs' causation and correlation id.
    var causationID: String { get }
    /// The `source` the handled event's id is unique within (``FollowUp/inboxSource`` for a follow-up).
    var causationSource: String { get }
    /// The notification handled.
    var requestIdentifier: String { get }
    /// The routing key of the outputs about the notification: its category identifier.
    var categoryIdentifier: String { get }
    /// The outputs' `time`.
    var outputTime: Date { get }
    /// The message handled, whose valid trace headers the outputs carry on.
    var message: InboundMessage { get }
}

extension OutputCause {
    /// ``outputTime`` in whole seconds since 1970, as AMQP's timestamp property carries it.
    var outputTimestamp: UInt64 { MessageProperties.timestamp(of: outputTime) }
}
