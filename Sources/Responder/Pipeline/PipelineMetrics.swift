import Metrics
import NotificationEvents

/// The pipeline's counters and timers, created once and recorded through the Metrics API (whatever backend the
/// process bootstrapped; none in tests and replay).
///
/// - `responder_responses_total{outcome}`: completed inputs by disposition (`updated`, `no-update`, `ignored`,
///   `deduplicated`), plus `dead-letter`, `failed` and `store-unavailable` (handed back unhandled).
/// - `responder_rejections_total{reason}`: inputs dead-lettered by the pipeline, by reason code.
/// - `responder_handler_failures_total{retryable}`: handler or store failures.
/// - `responder_invalid_trace_headers_total`: inputs whose `traceparent` or `tracestate` was not valid W3C Trace
///   Context, so their outputs go without it.
/// - `responder_state_conflicts_total`: commits refused because another process changed the notification first.
/// - `responder_handler_duration_seconds{tier}`: time spent in handlers (`extension`, `delegate`).
struct PipelineMetrics: Sendable {
    private let completed: [ResponseOutcome.Disposition: Counter]
    private let deadLettered: Counter
    private let failed: Counter
    private let storeUnavailable: Counter
    private let rejections: [DeadLetterReason: Counter]
    private let failures: [Bool: Counter]
    let stateConflicts = Counter(label: "responder_state_conflicts_total")
    let invalidTraceHeaders = Counter(label: "responder_invalid_trace_headers_total")
    let extensionDuration = Timer(label: "responder_handler_duration_seconds", dimensions: [("tier", "extension")])
    let delegateDuration = Timer(label: "responder_handler_duration_seconds", dimensions: [("tier", "delegate")])

    init() {
        let label = "responder_responses_total"
        completed = Dictionary(
            uniqueKeysWithValues: ResponseOutcome.Disposition.allCases.map {
                ($0, Counter(label: label, dimensions: [("outcome", $0.rawValue)]))
            })
        deadLettered = Counter(label: label, dimensions: [("outcome", "dead-letter")])
        failed = Counter(label: label, dimensions: [("outcome", "failed")])
        storeUnavailable = Counter(label: label, dimensions: [("outcome", "store-unavailable")])
        rejections = Dictionary(
            uniqueKeysWithValues: DeadLetterReason.allCases.map {
                ($0, Counter(label: "responder_rejections_total", dimensions: [("reason", $0.rawValue)]))
            })
        failures = [
            true: Counter(label: "responder_handler_failures_total", dimensions: [("retryable", "true")]),
            false: Counter(label: "responder_handler_failures_total", dimensions: [("retryable", "false")]),
        ]
    }

    func record(_ outcome: ResponseOutcome) {
        switch outcome {
        case .completed(_, let disposition):
            completed[disposition]?.increment()
        case .deadLetter(let reason, _):
            deadLettered.increment()
            rejections[reason]?.increment()
        case .failed(_, let retryable):
            failed.increment()
            failures[retryable]?.increment()
        case .storeUnavailable:
            storeUnavailable.increment()
        }
    }
}
