/// The state store cannot serve requests right now: the disk is full, an I/O error, a lock held past its timeout,
/// a read-only or corrupt file, a database server that cannot be reached, a lost connection.
///
/// This is never the event's fault, so it must not count against the event: a store throws this (and not a plain
/// error) for every failure that waiting may cure, and the worker pauses instead of retrying or dead-lettering
/// the event. Any other error a store throws is treated as the event's failure.
public struct StateStoreUnavailable: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the store is unavailable, for operators: bounded, and never holding a password or event data.
    public var reason: String

    /// An unavailable store, for `reason`.
    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { "state store unavailable: \(reason)" }
}
