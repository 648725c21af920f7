import InMemoryTracing
import NotificationEvents
import PipelineHarness
import Responder
import Testing
import Tracing

/// The pipeline's spans: `handle` under the span the input was submitted in, `commit` under `handle`; none without
/// a tracer; and none of them carries a response's typed text.
@Suite struct PipelineTracingTests {
    static let secret = "the gate code is 4711"

    private static func run(
        _ events: [NotificationResponseEvent], tracer: InMemoryTracer?, under parent: (any Span)?
    ) async throws -> [ResponseOutcome] {
        var configuration = PipelineConfiguration()
        configuration.tracer = tracer
        let pipeline = ResponsePipeline(
            registry: try Fixtures.registry(), store: InMemoryStateStore(), configuration: configuration, logger: .quiet)
        let scheduler = ResponseScheduler<Int>(pipeline: pipeline, maxConcurrentNotifications: 2)
        return await withTaskGroup(of: Void.self) { group in
            group.addTask { await scheduler.run() }
            ServiceContext.withValue(parent?.context) {
                scheduler.submit(events.enumerated().map { (Events.message($1), $0, ServiceContext.current) })
            }
            scheduler.finish()
            var outcomes: [ResponseOutcome] = []
            for await completion in scheduler.completions { outcomes.append(completion.outcome) }
            return outcomes
        }
    }

    @Test func handleAndCommitAreChildrenOfTheSubmittersSpan() async throws {
        let tracer = InMemoryTracer()
        let process = tracer.startSpan("process", context: .topLevel, ofKind: .consumer)
        let reply = Events.response(id: "e1", action: .custom("reply-action"), userText: Self.secret)
        let outcomes = try await Self.run([reply], tracer: tracer, under: process)
        process.end()
        #expect(outcomes.count == 1)

        let spans = tracer.finishedSpans
        let handle = try #require(spans.first { $0.operationName == "handle" })
        #expect(handle.traceID == process.traceID && handle.parentSpanID == process.spanID)
        let commit = try #require(spans.first { $0.operationName == "commit" })
        #expect(commit.traceID == process.traceID && commit.parentSpanID == handle.spanID)
        #expect(spans.count == 3, "process, handle, commit: \(spans.map(\.operationName))")
        for span in spans {
            #expect(!"\(span.attributes)".contains(Self.secret))
            #expect(!"\(span.events)".contains(Self.secret))
            #expect(span.status?.message?.contains(Self.secret) != true)
        }
    }

    @Test func withoutATracerThereAreNoSpans() async throws {
        let tracer = InMemoryTracer()
        let process = tracer.startSpan("process", context: .topLevel)
        let outcomes = try await Self.run([Events.response(id: "e1")], tracer: nil, under: process)
        process.end()
        #expect(outcomes.count == 1)
        #expect(tracer.finishedSpans.map(\.operationName) == ["process"])
    }
}
