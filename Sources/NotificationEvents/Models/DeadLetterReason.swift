/// Why a message was dead-lettered: the value of its `x-responder-reason` header.
public enum DeadLetterReason: String, Sendable, Hashable, Codable, CaseIterable, ContractEnum {
    /// The body is not JSON by the contract's rules.
    case malformedJSON = "malformed-json"
    /// A field is missing, has the wrong type or breaks a rule of the schema.
    case invalidField = "invalid-field"
    /// The event's `type` is not one the worker reads.
    case unknownType = "unknown-type"
    /// The event's `specversion` is not CloudEvents 1.0.
    case unknownSpecVersion = "unknown-specversion"
    /// The message's content-type is neither `application/cloudevents+json` nor `application/json`, or its
    /// content-encoding says the body is not the JSON text itself (compressed, for one).
    case unsupportedContentType = "unsupported-content-type"
    /// The body is larger than the worker accepts.
    case bodyTooLarge = "body-too-large"
    /// A handler failed in a way retrying cannot fix.
    case handlerFailed = "handler-failed"
    /// Every retry failed.
    case retriesExhausted = "retries-exhausted"
    /// Something the worker had to publish for the message (an output, a retry) breaks a limit of AMQP or the
    /// broker: a routing key over 255 bytes, headers larger than a frame, a body over the broker's limit.
    case unpublishable = "unpublishable"
    /// The broker delivered the message more often than the queue's delivery limit.
    case deliveryLimitExceeded = "delivery-limit-exceeded"
    /// The event's `id` was processed before, from the same `source`, for another notification: the producer reused
    /// an id CloudEvents makes unique per source. Neither a retry nor a redrive can help while the inbox remembers the
    /// first event; the producer must give the event an id of its own.
    case eventIDReused = "event-id-reused"
    /// A handler ran past its time limit on the last attempt (and every retry is spent): what it waits for did not
    /// answer in time, or the limit is too short for it.
    case handlerTimeout = "handler-timeout"
    /// The event names a notification delivery the worker stored under another category (the same request identifier
    /// and `notification.date`): a notification's category never changes, so the producer misreported one of them.
    case categoryChanged = "category-changed"

    /// Reads the raw value; an unknown one is refused with the list of allowed values.
    public init(from decoder: any Decoder) throws { try self.init(contractFrom: decoder) }
}
