import NotificationEvents
import Responder

/// What handling one response did, as typed values: the update, dismissal or removal it published, the messages its
/// handlers sent, and how it ended.
public struct HandledResponse: Sendable {
    /// The pipeline's outcome, exactly as the worker acts on it.
    public let outcome: ResponseOutcome

    /// The action-set updates the response published (none when the buttons did not change), decoded from the
    /// bytes the worker would publish.
    public let updates: [ActionSetUpdateEvent]

    /// The dismissals the response published (one when a handler answered `.dismiss` or
    /// `.dismissAndForwardAction`), decoded from the bytes the worker would publish.
    public let dismissals: [NotificationDismissedEvent]

    /// The removals the response published (one when the app delegate called `removeNotification()`), decoded from
    /// the bytes the worker would publish.
    public let removals: [NotificationRemovedEvent]

    /// The messages the handlers sent through the outbox, in order, as the worker would publish them to their
    /// declared destinations.
    public let sent: [SentMessage]

    /// What `outcome` published, its sent messages matched to `destinations` (the broker harness builds it too).
    package init(_ outcome: ResponseOutcome, destinations: some Collection<MessageDestination>) throws {
        self.outcome = outcome
        let outputs = outcome.outputs
        var sent: [SentMessage] = []
        for output in outputs {
            let properties = output.properties
            guard let cause = properties.correlationID,
                properties.messageID == SentMessage.messageID(causedBy: cause, number: sent.count + 1),
                let destination = destinations.first(where: {
                    $0.exchange == output.exchange && $0.routingKey == output.routingKey
                })
            else { continue }
            sent.append(SentMessage(output.body, to: destination, contentType: properties.contentType, type: properties.type))
        }
        self.sent = sent
        updates = try outputs.filter { $0.properties.type == EventType.actionSetUpdated }
            .map { try EventCodec.decodeActionSetUpdateEvent($0.body) }
        dismissals = try outputs.filter { $0.properties.type == EventType.notificationDismissed }
            .map { try EventCodec.decodeDeviceCommandEvent($0.body, as: Dismissal.self) }
        removals = try outputs.filter { $0.properties.type == EventType.notificationRemoved }
            .map { try EventCodec.decodeDeviceCommandEvent($0.body, as: Removal.self) }
    }

    /// How a handled input ended (`updated`, `noUpdate`, `ignored`, `deduplicated`, `stale`, or `deferred` for a
    /// follow-up back before it was due), or nil when it was not handled: see ``deadLetterReason`` and ``failure``.
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
