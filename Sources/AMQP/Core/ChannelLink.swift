import Synchronization

/// What callers and the I/O thread share about one channel: its number and whether (and why) it closed.
///
/// Callers check it before handing work over, so acks and publishes on a closed channel throw at once.
final class ChannelLink: Sendable {
    let id: UInt16
    private let isClosed = Atomic<Bool>(false)
    private let reason = Mutex<AMQPError?>(nil)

    init(id: UInt16) {
        self.id = id
    }

    /// The error that closed the channel, or `nil` while it is open. Costs one atomic load while open.
    var closeError: AMQPError? {
        guard isClosed.load(ordering: .acquiring) else { return nil }
        return reason.withLock { $0 }
    }

    /// Records why the channel closed; the first reason wins.
    func markClosed(_ error: AMQPError) {
        reason.withLock { current in
            if current == nil { current = error }
        }
        isClosed.store(true, ordering: .releasing)
    }
}
