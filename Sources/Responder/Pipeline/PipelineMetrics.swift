import Metrics
import NotificationEvents

/// The pipeline's failure counters and handler timers, created once from ``MetricDescription``'s entries and
/// recorded through the Metrics API (whatever backend the process bootstrapped; none in tests and replay).
///
/// How each input ends is the worker's to count (`responder_events_total`), since only the worker sees every
/// input, those refused before the pipeline included.
struct PipelineMetrics: Sendable {
    private let failures: [Bool: Counter]
    let stateConflicts = Counter(label: MetricDescription.stateConflicts.name)
    let invalidTraceHeaders = Counter(label: MetricDescription.invalidTraceHeaders.name)
    let extensionDuration = Timer(label: MetricDescription.handlerDuration.name, dimensions: [("tier", "extension")])
    let delegateDuration = Timer(label: MetricDescription.handlerDuration.name, dimensions: [("tier", "delegate")])
    let extensionTimeouts = Counter(label: MetricDescription.handlerTimeouts.name, dimensions: [("tier", "extension")])
    let delegateTimeouts = Counter(label: MetricDescription.handlerTimeouts.name, dimensions: [("tier", "delegate")])

    init() {
        failures = [
            true: Counter(label: MetricDescription.handlerFailures.name, dimensions: [("retryable", "true")]),
            false: Counter(label: MetricDescription.handlerFailures.name, dimensions: [("retryable", "false")]),
        ]
    }

    func record(_ outcome: ResponseOutcome) {
        if case .failed(_, let retryable) = outcome { failures[retryable]?.increment() }
    }
}
