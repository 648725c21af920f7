import NotificationEvents
import Responder

/// What handling one response did, as typed values: the update it published, if any, and how it ended.
public struct HandledResponse: Sendable {
    /// The pipeline's outcome, exactly as the worker acts on it.
    public let outcome: ResponseOutcome

    /// The action-set updates the response published (none when the buttons did not change), decoded from the
    /// bytes the worker would publish.
    public let updates: [ActionSetUpdateEvent]

    init(_ outcome: ResponseOutcome) throws {
        self.outcome = outcome
        updates = try outcome.outputs.map { try EventCodec.decodeActionSetUpdateEvent($0.body) }
    }

    /// How a handled response ended (`updated`, `noUpdate`, `ignored`, `deduplicated`, `stale`), or nil when it was not
    /// handled: see ``deadLetterReason`` and ``failure``.
    public var disposition: ResponseOutcome.Disposition? {
        if case .completed(_, let disposition) = outcome { return disposition }
        return nil
    }

    /// The update's new buttons when exactly one update was published, the common case; else nil.
    public var newActions: [NotificationAction]? {
        updates.count == 1 ? updates[0].data.actions : nil
    }

    /// Why the response would be dead-lettered, or nil when it would not.
    public var deadLetterReason: DeadLetterReason? {
        if case .deadLetter(let reason, _) = outcome { return reason }
        return nil
    }

    /// The error a handler (or the store) threw, and whether the worker would retry it; nil when none did.
    public var failure: (error: any Error, retryable: Bool)? {
        if case .failed(let error, let retryable) = outcome { return (error, retryable) }
        return nil
    }
}
