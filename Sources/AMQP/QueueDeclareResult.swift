/// What the broker reports after queue.declare.
public struct QueueDeclareResult: Sendable, Hashable {
    /// The queue's name; the broker makes one up when the declared name was empty.
    public var name: String
    /// Messages ready for delivery (not counting unacknowledged ones).
    public var messageCount: UInt32
    /// Consumers on the queue.
    public var consumerCount: UInt32

    /// A result with the given fields.
    public init(name: String, messageCount: UInt32, consumerCount: UInt32) {
        self.name = name
        self.messageCount = messageCount
        self.consumerCount = consumerCount
    }
}
