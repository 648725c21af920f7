extension MetricDescription {
    /// Inputs settled by the worker, one count per input, by how it ended.
    package static let events = MetricDescription(
        name: "responder_events_total", kind: .counter, labels: ["outcome"],
        meaning: "inputs settled, by `outcome`: `updated`, `no_update`, `ignored`, `deduplicated`, `stale` "
            + "(about a notification replaced or removed since), `deferred` (a follow-up back before it was due, sent "
            + "down its delay queues again), `retried`, `dead_lettered`, `handed_back` "
            + "(returned to the queue unhandled during a store or dependency outage)")
    package static let deadLettered = MetricDescription(
        name: "responder_dead_lettered_total", kind: .counter, labels: ["reason"],
        meaning: "inputs dead-lettered, by the dead-letter `reason` code")
    package static let handlerFailures = MetricDescription(
        name: "responder_handler_failures_total", kind: .counter, labels: ["retryable"],
        meaning: "handler or state store failures, `retryable` `true` (retried) or `false` (dead-lettered)")
    package static let handlerTimeouts = MetricDescription(
        name: "responder_handler_timeouts_total", kind: .counter, labels: ["tier"],
        meaning: "handlers cancelled past their time limit, by `tier`: `extension`, `delegate` (each also counts as a retryable failure)")
    package static let handlerCallsAbandoned = MetricDescription(
        name: "responder_handler_calls_abandoned", kind: .gauge, labels: [],
        meaning: "handler calls cut off by their time limit that ignored the cancellation and still run; at `--max-abandoned-calls` the worker pauses as for an unavailable dependency")
    package static let slowHandlerCalls = MetricDescription(
        name: "responder_slow_handler_calls", kind: .gauge, labels: [],
        meaning: "handler calls that outlasted their batch and still run, each holding its notification and one of "
            + "`--concurrency`'s slots; while they hold every slot the worker takes no new inputs")
    package static let stateConflicts = MetricDescription(
        name: "responder_state_conflicts_total", kind: .counter, labels: [],
        meaning: "commits retried because another process changed the notification first")
    package static let invalidTraceHeaders = MetricDescription(
        name: "responder_invalid_trace_headers_total", kind: .counter, labels: [],
        meaning: "inputs whose `traceparent` or `tracestate` was not valid W3C Trace Context (dropped from the update)")
    package static let unregisteredCategories = MetricDescription(
        name: "responder_unregistered_category_responses_total", kind: .counter, labels: ["category"],
        meaning: "responses to a notification whose category is not registered (often a producer's typo): they go to "
            + "the app delegate, as on iOS, and get no buttons to start from; by `category`, cut to 64 bytes, the "
            + "first 100 distinct then `other`; each category is also logged at warning at most once a minute")
    package static let handlerDuration = MetricDescription(
        name: "responder_handler_duration_seconds", kind: .histogram, labels: ["tier"],
        meaning: "time spent in handlers, by `tier`: `extension`, `delegate`")
    package static let endToEndDuration = MetricDescription(
        name: "responder_end_to_end_duration_seconds", kind: .histogram, labels: [],
        meaning: "from the socket read of a delivery to its ack handed to the connection")
    package static let inFlight = MetricDescription(
        name: "responder_in_flight_events", kind: .gauge, labels: [], meaning: "inputs received and not yet settled")
    package static let reconnects = MetricDescription(
        name: "responder_reconnects_total", kind: .counter, labels: [],
        meaning: "attempts to connect to the broker again after a connection failed or was lost, or the broker cancelled the consumer")
    package static let brokerConnected = MetricDescription(
        name: "responder_broker_connected", kind: .gauge, labels: [], meaning: "1 while consuming")
    package static let brokerBlocked = MetricDescription(
        name: "responder_broker_blocked", kind: .gauge, labels: [], meaning: "1 while the broker blocks publishing")
    package static let storePaused = MetricDescription(
        name: "responder_store_paused", kind: .gauge, labels: [],
        meaning: "1 while the worker is paused because the state store is unavailable")
    package static let storeOutages = MetricDescription(
        name: "responder_store_outages_total", kind: .counter, labels: [],
        meaning: "state store outages, each of which paused the worker")
    package static let dependencyPaused = MetricDescription(
        name: "responder_dependency_paused", kind: .gauge, labels: [],
        meaning: "1 while the worker is paused because a dependency of the handlers is unavailable")
    package static let dependencyOutages = MetricDescription(
        name: "responder_dependency_outages_total", kind: .counter, labels: [],
        meaning: "outages of a dependency of the handlers, each of which paused the worker")
    package static let shardActive = MetricDescription(
        name: "responder_shard_active", kind: .gauge, labels: ["shard"],
        meaning: "ordered mode: 1 for each `shard` (its index) the worker holds and consumes, 0 for the others")
    package static let ready = MetricDescription(
        name: "responder_ready", kind: .gauge, labels: [], meaning: "1 while `/health/ready` answers 200, else 0")

    /// Every metric a worker serves, in the order of the metrics table (ResponderWorker.docc, Observability).
    package static let all: [MetricDescription] = [
        events, deadLettered, handlerFailures, handlerTimeouts, handlerCallsAbandoned, slowHandlerCalls, stateConflicts,
        invalidTraceHeaders, unregisteredCategories, handlerDuration, endToEndDuration, inFlight, reconnects, brokerConnected, brokerBlocked, storePaused, storeOutages,
        dependencyPaused, dependencyOutages, shardActive, ready,
    ]
}
