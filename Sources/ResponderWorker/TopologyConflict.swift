/// The broker holds a topology this worker must not use, for example a different shard count: the worker stops
/// with this message instead of reconnecting, since no retry can fix it.
public struct TopologyConflict: Error, Sendable, CustomStringConvertible {
    /// What differs, and what to do about it.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
