import NotificationEvents

/// The body of the message that carries a follow-up through its delay queues: the follow-up's id and its
/// notification, nothing the worker would trust.
struct FollowUpMessage: Sendable, Hashable, Codable {
    var followUp: String
    var requestIdentifier: String

    /// The `type` property that marks the message as a follow-up; an input without it is read as an event.
    static let type = "responder.follow-up.v1"

    /// The follow-up a message of ``type`` names, or a rejection for a body that is not one.
    static func decode(_ message: InboundMessage) throws(InputRejection) -> DecodedFollowUp {
        do {
            let body = try EventCodec.decode(FollowUpMessage.self, from: message.body)
            return DecodedFollowUp(message: message, id: body.followUp, requestIdentifier: body.requestIdentifier)
        } catch {
            throw InputRejection(reason: error.deadLetterReason, detail: "a follow-up message that does not decode: \(error)")
        }
    }
}
