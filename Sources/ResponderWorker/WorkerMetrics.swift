import Metrics
import Responder

/// The worker's metrics, created from ``MetricDescription``'s entries, through swift-metrics so any backend works;
/// `responder run` bootstraps Prometheus.
///
/// Labels carry only bounded, non-personal values (outcome and reason codes), never identifiers or typed text.
struct WorkerMetrics: Sendable {
    /// How an input ended.
    enum Outcome: String, CaseIterable, Sendable {
        case updated
        case noUpdate = "no_update"
        case ignored
        case retried
        /// Handed back to the input queue unhandled, because the state store or a handler's dependency was unavailable.
        case handedBack = "handed_back"
        case deadLettered = "dead_lettered"
        case deduplicated
        case stale
        /// A follow-up back before it was due, sent down its delay queues again.
        case deferred
    }

    private let outcomes: [Outcome: Counter]
    let inFlight = Meter(label: MetricDescription.inFlight.name)
    let reconnects = Counter(label: MetricDescription.reconnects.name)
    let blocked = Gauge(label: MetricDescription.brokerBlocked.name)
    let connected = Gauge(label: MetricDescription.brokerConnected.name)
    /// 1 while the worker is paused because its state store is unavailable.
    let storePaused = Gauge(label: MetricDescription.storePaused.name)
    /// Outages of the state store: each one paused the worker.
    let storeOutages = Counter(label: MetricDescription.storeOutages.name)
    /// 1 while a dependency of the handlers is unavailable (the worker pauses, and probes with the next inputs).
    let dependencyPaused = Gauge(label: MetricDescription.dependencyPaused.name)
    /// Outages of a handler's dependency: each one paused the worker.
    let dependencyOutages = Counter(label: MetricDescription.dependencyOutages.name)

    init() {
        outcomes = Dictionary(
            uniqueKeysWithValues: Outcome.allCases.map {
                ($0, Counter(label: MetricDescription.events.name, dimensions: [("outcome", $0.rawValue)]))
            })
    }

    func record(_ outcome: Outcome) {
        outcomes[outcome]?.increment()
    }

    /// Ordered mode: whether the worker consumes shard `shard` (holds its lease), 1 or 0.
    func shardActive(_ shard: Int, _ active: Bool) {
        Gauge(label: MetricDescription.shardActive.name, dimensions: [("shard", "\(shard)")]).record(active ? 1 : 0)
    }

    func deadLettered(reason: String) {
        Counter(label: MetricDescription.deadLettered.name, dimensions: [("reason", reason)]).increment()
    }
}

extension WorkerMetrics.Outcome {
    init(_ disposition: ResponseOutcome.Disposition) {
        switch disposition {
        case .updated: self = .updated
        case .noUpdate: self = .noUpdate
        case .ignored: self = .ignored
        case .deduplicated: self = .deduplicated
        case .stale: self = .stale
        case .deferred: self = .deferred
        }
    }
}

extension Duration {
    /// The whole duration in nanoseconds, for metrics that take integers.
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
