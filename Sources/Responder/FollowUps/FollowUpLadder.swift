/// The delay queues a follow-up waits in until it is due: one exchange per delay, each feeding a queue that holds a
/// message for that delay and then dead-letters it back to the input exchange under its routing key (the
/// notification's request identifier, so in ordered mode it comes back on its notification's shard). The topology
/// declares them (`Topology.followUpDelays`); the pipeline publishes to them.
///
/// A follow-up goes down the ladder: to the longest delay not past the time left, and again, by the worker's clock,
/// each time it comes back before it is due. When less time is left than the shortest delay, it waits the shortest
/// one, so it is handled late by less than that, never early.
public struct FollowUpLadder: Sendable, Hashable {
    /// One rung: how long a message waits there, and the exchange it is published to.
    public struct Step: Sendable, Hashable {
        /// How long a message waits, in milliseconds (the queue's `x-message-ttl`).
        public var milliseconds: Int
        /// The exchange, and its queue's name.
        public var exchange: String
        /// How long a message waits.
        public var delay: Duration { .milliseconds(milliseconds) }
    }

    /// The rungs, shortest delay first; never empty.
    public let steps: [Step]

    /// The default delays: 1 s, 10 s, 1 min, 10 min and 1 h, in milliseconds. A follow-up due in a day waits 24
    /// hours in the last queue, one message per hour.
    public static let defaultDelays = [1_000, 10_000, 60_000, 600_000, 3_600_000]

    /// The ladder of the delays `milliseconds` (each above 0) for the input queue `inputQueue`.
    public init(inputQueue: String, milliseconds: [Int]) {
        precondition(!milliseconds.isEmpty && milliseconds.allSatisfy { $0 > 0 }, "a follow-up ladder needs delays above 0")
        steps = Set(milliseconds).sorted().map {
            Step(milliseconds: $0, exchange: Self.name(inputQueue: inputQueue, milliseconds: $0))
        }
    }

    /// The name of the exchange, and of its queue, of the delay `milliseconds`: `<input queue>.follow-up.<ms>ms`.
    public static func name(inputQueue: String, milliseconds: Int) -> String {
        "\(inputQueue).follow-up.\(milliseconds)ms"
    }

    /// The rung for a follow-up due in `timeLeft`: the longest delay not past it, else the shortest.
    public func step(for timeLeft: Duration) -> Step {
        steps.last { $0.delay <= timeLeft } ?? steps[0]
    }
}
