/// One ``StateStore/load(requestIdentifier:eventID:)`` call's keys, as a store that serves loads in groups
/// (``GroupLoad``) queues them.
public struct StateLoad: Sendable, Hashable {
    /// The notification whose record is read.
    public var requestIdentifier: String
    /// The event whose stored outputs are read, if it was processed.
    public var eventID: String

    /// The keys of a load of `eventID` for the notification `requestIdentifier`.
    public init(requestIdentifier: String, eventID: String) {
        self.requestIdentifier = requestIdentifier
        self.eventID = eventID
    }
}
