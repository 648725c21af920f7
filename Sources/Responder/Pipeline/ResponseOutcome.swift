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
    /// A handler's dependency is unavailable (``DependencyUnavailable``), as it was for several different events in
    /// a row before this one: nothing was committed, and the input is not at fault. Hand it back untouched, without
    /// counting an attempt, and pause until the dependency answers again.
    case dependencyUnavailable(DependencyUnavailable)

    /// What a completed input amounted to.
    public enum Disposition: String, Sendable, Hashable, CaseIterable {
        /// Handlers changed the notification's actions, dismissed it or sent messages (the outputs hold the action-set
        /// update, the dismissal and the messages, in that order, or some of them), or a lifecycle event removed the
        /// notification (they hold the removal).
        case updated
        /// Handlers ran, changed no actions, dismissed nothing and sent nothing, or a lifecycle event replaced the
        /// notification: no outputs.
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
        /// A follow-up came back before it was due (by the worker's clock): nothing changed, and its one output sends it
        /// down its delay queues again.
        case deferred
    }

    /// The messages to publish: empty unless completed.
    public var outputs: [OutboundMessage] {
        if case .completed(let outputs, _) = self { return outputs }
        return []
    }
}
