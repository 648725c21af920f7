import Metrics
import Synchronization

/// The handler calls cut off by their time limit that ignored the cancellation and still run (``ChainLanes``
/// stops waiting for them): each holds what it holds, a task, a socket, memory, until it ends, if it ever does. A
/// pipeline counts them on `responder_handler_calls_abandoned`, and at ``limit`` it starts no more handler calls: it
/// reports the handlers' dependency unavailable instead, so a worker pauses (inputs handed back uncounted) until
/// some of them end, rather than pile up calls behind something that does not answer.
final class AbandonedCalls: Sendable {
    /// How many may run at once before the pipeline stops calling handlers.
    let limit: Int
    private let count = Mutex(0)
    private let gauge = Gauge(label: MetricDescription.handlerCallsAbandoned.name)

    init(limit: Int) {
        precondition(limit > 0, "the limit of abandoned handler calls must be positive")
        self.limit = limit
        // From the start, so dashboards see the gauge before the first timeout.
        gauge.record(0)
    }

    /// How many run now.
    var running: Int { count.withLock { $0 } }

    /// What to report instead of calling a handler while ``limit`` of them run; nil below it.
    var unavailability: DependencyUnavailable? {
        let running = running
        guard running >= limit else { return nil }
        return DependencyUnavailable(
            "\(running) handler calls cut off by their time limit still run, ignoring the cancellation (the limit is "
                + "\(limit)): no more calls start until some of them end")
    }

    /// Records that a call was cut off while it still runs.
    func abandon() {
        // Recorded under the lock, so concurrent changes reach the gauge in the order they happened.
        count.withLock { count in
            count += 1
            gauge.record(count)
        }
    }

    /// Records that an abandoned call ended.
    func end() {
        count.withLock { count in
            count -= 1
            gauge.record(count)
        }
    }
}
