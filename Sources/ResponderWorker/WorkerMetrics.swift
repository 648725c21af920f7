import Metrics
import Responder

/// The worker's metrics, through swift-metrics so any backend works; `responder run` bootstraps Prometheus.
///
/// Labels carry only bounded, non-personal values (outcome and reason codes), never identifiers or typed text.
struct WorkerMetrics: Sendable {
    /// How an input ended.
    enum Outcome: String, CaseIterable, Sendable {
        case updated
        case noUpdate = "no_update"
        case ignored
        case retried
        /// Handed back to the input queue unhandled, because the state store was unavailable.
        case handedBack = "handed_back"
        case deadLettered = "dead_lettered"
        case deduplicated
    }

    private let outcomes: [Outcome: Counter]
    let endToEnd = Timer(label: "responder_end_to_end_duration_seconds", preferredDisplayUnit: .seconds)
    let inFlight = Meter(label: "responder_in_flight_events")
    let reconnects = Counter(label: "responder_reconnects_total")
    let blocked = Gauge(label: "responder_broker_blocked")
    let connected = Gauge(label: "responder_broker_connected")
    /// 1 while the worker is paused because its state store is unavailable.
    let storePaused = Gauge(label: "responder_store_paused")
    /// Outages of the state store: each one paused the worker.
    let storeOutages = Counter(label: "responder_store_outages_total")

    init() {
        outcomes = Dictionary(
            uniqueKeysWithValues: Outcome.allCases.map {
                ($0, Counter(label: "responder_events_total", dimensions: [("outcome", $0.rawValue)]))
            })
    }

    func record(_ outcome: Outcome) {
        outcomes[outcome]?.increment()
    }

    func deadLettered(reason: String) {
        Counter(label: "responder_dead_lettered_total", dimensions: [("reason", reason)]).increment()
    }
}

extension WorkerMetrics.Outcome {
    init(_ disposition: ResponseOutcome.Disposition) {
        switch disposition {
        case .updated: self = .updated
        case .noUpdate: self = .noUpdate
        case .ignored: self = .ignored
        case .deduplicated: self = .deduplicated
        }
    }
}

extension Duration {
    /// The whole duration in nanoseconds, for metrics that take integers.
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
