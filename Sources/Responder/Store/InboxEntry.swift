import Foundation

/// One processed event as the inbox remembers it, keyed by its source and id (CloudEvents makes an id unique per
/// source only).
///
/// Entries stored before the inbox knew sources have the empty source (no event has one): such an entry stands for
/// its id from every source until its retention ends, so a redelivery of an event processed before the upgrade is
/// still recognised.
public struct InboxEntry: Sendable, Hashable {
    /// The processed event's `source`: with ``eventID``, the key of the entry.
    public var source: String
    /// The processed event's id.
    public var eventID: String
    /// The notification the event was about.
    public var requestIdentifier: String
    /// The outputs the event produced, in order; returned as they are when the event comes again.
    public var outputs: [OutboundMessage]
    /// When it was processed (wall clock): what retention is measured from.
    public var processedAt: Date

    /// An entry for the event `eventID` from `source`.
    public init(
        source: String, eventID: String, requestIdentifier: String, outputs: [OutboundMessage], processedAt: Date
    ) {
        self.source = source
        self.eventID = eventID
        self.requestIdentifier = requestIdentifier
        self.outputs = outputs
        self.processedAt = processedAt
    }
}
