import NotificationEvents

/// Why a message is dead-lettered: the stable codes of dead-letter headers, metrics and the dead-letter schema.
public enum DeadLetterReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// The body is not JSON.
    case malformedJSON = "malformed-json"
    /// A required field is missing or a field has the wrong type.
    case invalidField = "invalid-field"
    /// The event's `type` is not one this worker handles.
    case unknownType = "unknown-type"
    /// The event's `specversion` is not CloudEvents 1.0.
    case unknownSpecVersion = "unknown-specversion"
    /// The message's content type or content encoding is not one the worker reads.
    case unsupportedContentType = "unsupported-content-type"
    /// The body is over the size limit.
    case bodyTooLarge = "body-too-large"
    /// A handler failed permanently.
    case handlerFailed = "handler-failed"
    /// A handler kept failing after the last retry.
    case retriesExhausted = "retries-exhausted"
    /// The broker delivered the message more often than its delivery limit (it kept crashing the worker).
    case deliveryLimitExceeded = "delivery-limit-exceeded"

    /// The reason an event body was refused for.
    public init(_ error: EventDecodingError) {
        switch error {
        case .malformedJSON: self = .malformedJSON
        case .invalidField: self = .invalidField
        case .unknownType: self = .unknownType
        case .unknownSpecVersion: self = .unknownSpecVersion
        }
    }
}
