import Synchronization

/// Counts, per handler, the different events in a row that failed with ``DependencyUnavailable``: at
/// ``PipelineConfiguration/dependencyFailures`` of them the dependency is taken to be down, not the events at fault.
/// A call of the handler that returns ends its streak; until then every further such failure of it reports
/// the outage at once, so the inputs a worker lets through to try the dependency again do not reach the retry queues.
final class DependencyFailureStreak: Sendable {
    private let threshold: Int
    private let events = Mutex<[String: Set<String>]>([:])

    init(threshold: Int) {
        precondition(threshold > 0, "the threshold of dependency failures must be positive")
        self.threshold = threshold
    }

    /// Records that `handler` failed `eventID` with a dependency unavailable; true once the streak has reached the
    /// threshold of different events.
    func failed(_ handler: String, _ eventID: String) -> Bool {
        events.withLock { events in
            if events[handler, default: []].count < threshold { events[handler, default: []].insert(eventID) }
            return events[handler]!.count >= threshold
        }
    }

    /// Whether some handler's streak has reached the threshold and no call of it has returned since: its dependency
    /// is still taken to be down, whatever other handlers' calls do.
    var holdsAnOutage: Bool {
        events.withLock { events in events.values.contains { $0.count >= threshold } }
    }

    /// Records that a call of `handler` returned: its streak ends.
    func worked(_ handler: String) {
        events.withLock { events in
            if events[handler] != nil { events[handler] = nil }
        }
    }
}
