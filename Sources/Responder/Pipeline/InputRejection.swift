import NotificationEvents

/// Why an input message cannot be handled, ever: it goes to the dead-letter exchange.
public struct InputRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable code.
    public var reason: DeadLetterReason
    /// What is wrong, readable; never contains `userText`; bounded by `DeadLetterInfo.boundedDetail(_:)` (NotificationEvents).
    public var detail: String

    /// A rejection for `reason`.
    public init(reason: DeadLetterReason, detail: String) {
        self.reason = reason
        self.detail = DeadLetterInfo.boundedDetail(detail)
    }

    public var description: String { "\(reason.rawValue): \(detail)" }

    /// The outcome of an input refused for this: a dead letter.
    var outcome: ResponseOutcome { .deadLetter(reason: reason, detail: detail) }
}
