/// Something that happened to a connection, from ``AMQPConnection/events``.
public enum AMQPConnectionEvent: Sendable, Hashable {
    /// The broker stopped reading publishes from this connection (connection.blocked), usually because of a memory
    /// or disk alarm; publishing stalls until ``unblocked``.
    case blocked(reason: String)
    /// The broker reads publishes again (connection.unblocked).
    case unblocked
    /// The connection is gone: `nil` after ``AMQPConnection/close()``, otherwise the error that ended it.
    /// This is the last event.
    case closed(AMQPError?)
}
