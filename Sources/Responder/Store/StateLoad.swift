/// One load of a ``StateStore/load(_:)`` batch: the keys of an event and its notification.
public struct StateLoad: Sendable, Hashable {
    /// The notification whose record is read.
    public var requestIdentifier: String
    /// The source of the event whose stored outputs are read.
    public var source: String
    /// The event whose stored outputs are read, if it was processed.
    public var eventID: String

    /// The keys of a load of `eventID` from `source` for the notification `requestIdentifier`.
    public init(requestIdentifier: String, source: String, eventID: String) {
        self.requestIdentifier = requestIdentifier
        self.source = source
        self.eventID = eventID
    }
}
