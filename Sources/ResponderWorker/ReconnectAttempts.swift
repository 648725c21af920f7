/// How many reconnections in a row have not yet led to a healthy session, which sets the next backoff delay.
///
/// A connection that opens is not proof the broker is well: a queue whose leader is still being elected, or one
/// deleted again and again, makes the broker cancel each new consumer at once. If such a session started the count
/// over, the worker would reconnect in a tight loop, hammering the broker and filling the log. So a session starts
/// the count over only once it has proved itself: it received an input, or it lasted as long as the longest delay.
struct ReconnectAttempts: Sendable {
    private let backoff: Backoff
    /// Reconnections since the last healthy session.
    private(set) var count = 0

    init(backoff: Backoff) {
        self.backoff = backoff
    }

    /// Records how a session ended, however it ended (an error, or the broker cancelling its consumers).
    mutating func sessionEnded(receivedInput: Bool, lasted: Duration) {
        if receivedInput || lasted >= backoff.maximum { count = 0 }
    }

    /// The delay before the next reconnection; counts it.
    mutating func nextDelay(using generator: inout some RandomNumberGenerator) -> Duration {
        defer { count += 1 }
        return backoff.delay(attempt: count, using: &generator)
    }
}
