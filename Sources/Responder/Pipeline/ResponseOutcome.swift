import NotificationEvents

/// How the pipeline ended with one input message: what the transport must do with it.
public enum ResponseOutcome: Sendable {
    /// The input was handled (or needed nothing): publish `outputs` in order, then acknowledge the input.
    case completed(outputs: [OutboundMessage], disposition: Disposition)
    /// The input can never be handled: dead-letter it with `reason` and the readable `detail`.
    case deadLetter(reason: DeadLetterReason, detail: String)
    /// A handler or the state store failed; nothing was committed. Retry later when `retryable`, else
    /// dead-letter with `DeadLetterReason.handlerFailed`. The error's description never contains `userText`
    /// unless a handler put it there.
    case failed(any Error, retryable: Bool)
    /// The state store cannot serve now (``StateStoreUnavailable``): nothing was committed, and the input is not at
    /// fault. Hand it back untouched, without counting an attempt, and pause until the store works again.
    case storeUnavailable(StateStoreUnavailable)

    /// What a completed input amounted to.
    public enum Disposition: String, Sendable, Hashable, CaseIterable {
        /// A handler changed the notification's actions (the outputs hold the action-set update), or a lifecycle event
        /// removed the notification (they hold the removal).
        case updated
        /// Handlers ran and changed no actions, or a lifecycle event replaced the notification: no outputs.
        case noUpdate = "no_update"
        /// No handler receives this response (e.g. a dismiss without customDismissAction): no outputs. Such an
        /// event is not written to the inbox, since handling it again has no effect either.
        case ignored
        /// The event was processed before: the outputs are the ones stored then, byte for byte.
        case deduplicated
        /// The response is about a notification that was replaced (by a request added again under its identifier)
        /// or removed since: no handler ran and nothing changed, no outputs. Like an ignored event, it is not written
        /// to the inbox: its notification only moves on, so it stays stale.
        case stale
    }

    /// The messages to publish: empty unless completed.
    public var outputs: [OutboundMessage] {
        if case .completed(let outputs, _) = self { return outputs }
        return []
    }
}
