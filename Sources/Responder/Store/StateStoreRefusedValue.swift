/// The store refused a value the event brought: a byte its database cannot hold, a key too long for its index, a
/// value that breaks a constraint. The event's own fault, which no retry and no waiting cures.
///
/// The pipeline dead-letters such an event at once as an invalid field, and does not count it toward the backstop
/// that takes many events failing on the store for a broken store (`StoreFailureStreak`): otherwise a producer
/// could pause the worker with a handful of events carrying, say, a U+0000 in their `source`.
public struct StateStoreRefusedValue: Error, Sendable, CustomStringConvertible {
    /// What the store said, for the dead-letter detail and the log; never a password.
    public var reason: String

    /// A refusal saying `reason`.
    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
