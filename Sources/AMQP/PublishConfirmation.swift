import Synchronization

/// The outcome of one publish made with ``AMQPChannel/publishPipelined(_:exchange:routingKey:mandatory:properties:)``.
///
/// Publish many messages first, then await their confirmations together: the broker confirms them in batches
/// while the publishes keep flowing. Await ``confirmed()`` from one task at a time; awaiting again after it
/// returned gives the same outcome.
public final class PublishConfirmation: @unchecked Sendable {
    // The I/O thread resolves, one task awaits. The atomic state decides which of the two hands the outcome over,
    // so neither takes a lock; `outcome` and `waiter` are written before the state change that publishes them.
    // The object also carries the publish to the I/O thread (one allocation per publish for both), which takes
    // `request` out once; the command queue's lock orders that after the caller's write.
    private static let pending: UInt8 = 0
    private static let awaiting: UInt8 = 1
    private static let resolved: UInt8 = 2

    private let state = Atomic<UInt8>(pending)
    private var outcome: AMQPError?
    private var waiter: CheckedContinuation<AMQPError?, Never>?

    /// The publish, until the I/O thread takes it to write it.
    var request: OutgoingPublish?

    init(request: OutgoingPublish) {
        self.request = request
    }

    /// Returns once the broker confirmed the publish (basic.ack), or at once on a channel without publisher
    /// confirms once the message was written to the socket.
    ///
    /// Throws ``AMQPError/nacked`` when the broker refused it, ``AMQPError/returned(replyCode:replyText:)`` when it
    /// was mandatory and unroutable, and the channel's or connection's error when either closed before the outcome
    /// was known: then the message may or may not have been stored.
    public func confirmed() async throws(AMQPError) {
        if state.load(ordering: .acquiring) == Self.resolved {
            if let outcome { throw outcome }
            return
        }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<AMQPError?, Never>) in
            waiter = continuation
            let (exchanged, original) = state.compareExchange(
                expected: Self.pending, desired: Self.awaiting, ordering: .acquiringAndReleasing)
            if !exchanged {
                precondition(original == Self.resolved, "PublishConfirmation.confirmed() awaited by two tasks at once")
                waiter = nil
                continuation.resume(returning: outcome)
            }
        }
        if let result { throw result }
    }

    /// Whether the outcome is known, so that ``confirmed()`` returns (or throws) without waiting.
    public var isResolved: Bool { state.load(ordering: .acquiring) == Self.resolved }

    /// Records the outcome (`nil` for success) and wakes the awaiting task; called once, on the I/O thread.
    func resolve(_ error: AMQPError?) {
        outcome = error
        let (exchanged, original) = state.compareExchange(
            expected: Self.pending, desired: Self.resolved, ordering: .acquiringAndReleasing)
        guard !exchanged, original == Self.awaiting, let waiter else { return }
        self.waiter = nil
        state.store(Self.resolved, ordering: .releasing)
        waiter.resume(returning: error)
    }
}
