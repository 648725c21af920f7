import NotificationEvents
import Tracing

/// The settings of a ``ResponsePipeline``; the defaults are the documented ones.
public struct PipelineConfiguration: Sendable {
    /// The CloudEvents `source` of the updates.
    public var source = "/responder"
    /// The `app-id` property of the updates.
    public var appID = "responder"
    /// How updates are published: a whole event as the body (the default), or in binary content mode with the
    /// attributes as `cloudEvents_` headers and the action set as the body.
    public var outputMode = EventContentMode.structured
    /// The largest body accepted, in bytes (default 256 KiB); a larger one is dead-lettered.
    public var maxBodySize = 256 * 1024
    /// How many times an event is handled again after its notification changed under it (another process
    /// committed first) before it fails retryably.
    public var maxConflictRetries = 5
    /// How long a handler may run on one response (default 30 s) unless it was registered with a limit of its own.
    /// Past it the handler is cancelled, the pipeline stops waiting for it (one that ignores the cancellation runs on,
    /// up to ``maxAbandonedCalls``), nothing it did is committed, and the input fails retryably with a ``HandlerTimeout``.
    public var handlerTimeout = Duration.seconds(30)
    /// How long a batch waits for a notification's handler call once every notification of the batch has started
    /// (default 100 ms). A call still running then holds only its notification: the batch's other events are
    /// committed and settled, and the slow call's events settle on their own when it returns or is cut at its limit.
    public var slowCallPatience = Duration.milliseconds(100)
    /// How many different events in a row one handler must fail with ``DependencyUnavailable`` before the pipeline
    /// reports ``ResponseOutcome/dependencyUnavailable(_:)`` (default 5): one event's failure retries that event, a
    /// run of them means the dependency is down and a worker pauses.
    public var dependencyFailures = 5
    /// How many handler calls cut off by their time limit may still run, ignoring the cancellation, before the
    /// pipeline starts no more (default 100): it reports ``ResponseOutcome/dependencyUnavailable(_:)`` for the
    /// inputs that would call a handler, and a worker pauses, until some of them end.
    public var maxAbandonedCalls = 100
    /// Called each time an input reaches a ``ProcessingStep``: by the pipeline for the first two, by the transport
    /// for the others. For fault injection in tests; nil (the default) costs one check per step. It runs on the
    /// processing task, so it must return quickly (or never: it may end the process). An error it throws at
    /// ``ProcessingStep/afterHandler`` fails the input as a retryable handler failure would; the transport's steps
    /// ignore errors.
    public var stepReached: (@Sendable (ProcessingStep) throws -> Void)?
    /// Where the pipeline's `handle` and `commit` spans go, children of the span in the task's service context (the
    /// worker's `process` span); nil (the default) records none, at the cost of one check per input. Spans carry
    /// the event id, category and action, never a response's `userText`.
    public var tracer: (any Tracer)?
    /// Why an output cannot be published (it breaks a limit of the transport: a message-id or routing key over 255
    /// bytes, properties larger than a frame), or nil when it can. The pipeline asks before it commits, so an event
    /// whose output the transport would refuse is dead-lettered as `unpublishable` with nothing stored: its
    /// notification's state never moves on without the update that carries it. nil (the default) checks nothing.
    /// The transport that knows the limits sets it (the worker and replay: from AMQP's publish limits), so they
    /// keep one home. The limits depend on the output as built (its mode, source, id and category), which is why
    /// this checks outputs rather than refusing long ids or categories at decode.
    public var publishability: (@Sendable (OutboundMessage) -> String?)?
    /// The delay queues follow-ups wait in (``FollowUpLadder``): by default the default topology's. A broker worker
    /// sets them from its topology.
    public var followUpLadder = FollowUpLadder(
        inputQueue: ResponsePipeline.defaultInputQueue, milliseconds: FollowUpLadder.defaultDelays)

    /// The default settings.
    public init() {}
}
