import Synchronization

/// Holds publishing while the broker has blocked the connection (`connection.blocked`).
///
/// rabbitmq-c 0.11 can block inside a publish while the broker is not reading (upstream #519), which would stall
/// the connection's I/O thread and its heartbeats; waiting here instead keeps the connection serviced.
final class PublishGate: Sendable {
    private struct State {
        var isOpen = true
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Returns at once while open, else when the gate opens again.
    func waitUntilOpen() async {
        if state.withLock({ $0.isOpen }) { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Closes the gate (the broker blocked us) or opens it and releases the waiters.
    func set(open: Bool) {
        let released = state.withLock { state in
            state.isOpen = open
            guard open else { return [CheckedContinuation<Void, Never>]() }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in released { waiter.resume() }
    }
}
