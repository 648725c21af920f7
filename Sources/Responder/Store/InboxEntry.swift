import Foundation

/// One processed event as the inbox remembers it.
public struct InboxEntry: Sendable, Hashable {
    /// The processed event's id: the key of the entry.
    public var eventID: String
    /// The notification the event was about.
    public var requestIdentifier: String
    /// The outputs the event produced, in order; returned as they are when the event comes again.
    public var outputs: [OutboundMessage]
    /// When it was processed (wall clock): what retention is measured from.
    public var processedAt: Date

    /// An entry for `eventID`.
    public init(eventID: String, requestIdentifier: String, outputs: [OutboundMessage], processedAt: Date) {
        self.eventID = eventID
        self.requestIdentifier = requestIdentifier
        self.outputs = outputs
        self.processedAt = processedAt
    }
}
