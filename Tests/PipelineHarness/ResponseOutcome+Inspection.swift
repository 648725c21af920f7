import NotificationEvents
import Responder

extension ResponseOutcome {
    /// The disposition of a completed outcome, nil otherwise.
    public var disposition: Disposition? {
        if case .completed(_, let disposition) = self { return disposition }
        return nil
    }

    /// The reason of a dead-letter outcome, nil otherwise.
    public var deadLetterReason: DeadLetterReason? {
        if case .deadLetter(let reason, _) = self { return reason }
        return nil
    }

    /// Whether a failed outcome is retryable; nil when the outcome is not a failure.
    public var isRetryableFailure: Bool? {
        if case .failed(_, let retryable) = self { return retryable }
        return nil
    }
}
