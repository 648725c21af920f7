import NotificationEvents

/// The body of the message that carries a follow-up through its delay queues: the follow-up's id and its
/// notification, nothing the worker would trust.
struct FollowUpMessage: Sendable, Hashable, Codable {
    var followUp: String
    var requestIdentifier: String

    /// The `type` property that marks the message as a follow-up; an input without it is read as an event.
    static let type = "responder.follow-up.v1"

    init(followUp: String, requestIdentifier: String) {
        self.followUp = followUp
        self.requestIdentifier = requestIdentifier
    }

    /// Both fields by the contract's identifier rules, as an event's: the request identifier is a state key, and
    /// one a store refuses (a U+0000 in PostgreSQL) would fail the load of every input of the batch.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        followUp = try container.decodeContractIdentifier(.followUp)
        requestIdentifier = try container.decodeContractIdentifier(.requestIdentifier)
    }

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
