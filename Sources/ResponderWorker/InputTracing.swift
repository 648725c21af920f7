import AMQP
import NotificationEvents
import Responder
import Tracing

/// The worker's part of an input's trace: the `process` span, from delivery to acknowledgement, continuing the
/// producer's `traceparent` when it is valid; the `publish` span, from handing the input's publications to the
/// connection to the broker's confirms; and the `traceparent` of the outputs, which is the `process` span's.
///
/// Attributes are bounded as the logs bound them (event ids, categories and message ids come from producers), and
/// never the response's `userText`: the event id, category and action, the outcome and the dead-letter reason.
struct InputTracing: Sendable {
    let tracer: any Tracer
    let inputQueue: String

    /// The `process` span of `message`: a child of the producer's span when its trace headers are valid, else the
    /// root of a new trace.
    func startProcessing(_ message: InboundMessage) -> any Span {
        var producer = ServiceContext.topLevel
        tracer.extract(message.properties.validTraceHeaders, into: &producer, using: TraceHeaderExtractor())
        let span = tracer.startSpan("process", context: producer, ofKind: .consumer)
        span.attributes["messaging.system"] = "rabbitmq"
        span.attributes["messaging.operation.type"] = "process"
        span.attributes["messaging.destination.name"] = inputQueue
        if let messageID = message.properties.messageID {
            span.attributes["messaging.message.id"] = DeadLetterInfo.boundedDetail(messageID)
        }
        return span
    }

    /// Names the event `span` processes: its id, category and action (never its `userText`).
    func describe(_ span: any Span, event: NotificationResponseEvent) {
        span.attributes["cloudevents.event_id"] = DeadLetterInfo.boundedDetail(event.id)
        span.attributes["responder.category"] = DeadLetterInfo.boundedDetail(
            event.data.notification.request.content.categoryIdentifier)
        span.attributes["responder.action"] = DeadLetterInfo.boundedDetail(
            event.data.actionIdentifier.rawValue)
    }

    /// Gives an output's AMQP properties `span`'s context as its `traceparent` (and `tracestate`), replacing what
    /// the pipeline passed on from the input.
    func stamp(_ output: inout MessageProperties, with span: any Span) {
        output.headers[TraceHeaderInjector.traceparent] = nil
        output.headers[TraceHeaderInjector.tracestate] = nil
        tracer.inject(span.context, into: &output.headers, using: TraceHeaderInjector())
    }

    /// The `publish` span of `count` publications of the input `process` traces.
    func startPublishing(_ count: Int, of process: any Span) -> any Span {
        let span = tracer.startSpan("publish", context: process.context, ofKind: .producer)
        span.attributes["messaging.system"] = "rabbitmq"
        span.attributes["messaging.operation.type"] = "send"
        span.attributes["messaging.batch.message_count"] = count
        return span
    }

    /// Ends `span` with how its input ended; a dead letter, retry or hand-back is an error, described by its
    /// reason code only.
    func finish(_ span: any Span, outcome: WorkerMetrics.Outcome, reason: DeadLetterReason?) {
        span.attributes["responder.outcome"] = outcome.rawValue
        if let reason { span.attributes["responder.dead_letter_reason"] = reason.rawValue }
        switch outcome {
        case .updated, .noUpdate, .ignored, .deduplicated, .stale, .deferred: break
        case .retried, .handedBack, .deadLettered:
            span.setStatus(SpanStatus(code: .error, message: reason?.rawValue ?? outcome.rawValue))
        }
        span.end()
    }
}

/// Reads the validated trace headers of an input.
private struct TraceHeaderExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? {
        carrier[key]
    }
}

/// Writes trace headers into an output's AMQP headers.
struct TraceHeaderInjector: Injector {
    static let traceparent = "traceparent"
    static let tracestate = "tracestate"

    func inject(_ value: String, forKey key: String, into carrier: inout FieldTable) {
        carrier[key] = .string(value)
    }
}
