/// How many messages a queue holds: ready for a consumer, and delivered but not yet acknowledged.
public struct QueueCounts: Sendable, Hashable, CustomStringConvertible {
    public var ready: Int
    public var unacknowledged: Int

    public init(ready: Int, unacknowledged: Int) {
        self.ready = ready
        self.unacknowledged = unacknowledged
    }

    public var description: String { "\(ready) ready, \(unacknowledged) unacknowledged" }
}
