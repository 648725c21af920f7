import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Testing
import WorkerHarness

/// `responder run` with the standard OTEL_* variables, against a real OTLP/HTTP receiver (scripts/otlp-receiver, on
/// the opentelemetry-proto package): each input is a `process` span that continues the producer's trace, with
/// `handle`, `commit` and `publish` spans under it; the update carries the `process` span's context; a graceful
/// shutdown exports what is left; and no span, nor any byte the exporter sent, holds a user's typed text.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct TracingThroughBrokerTests {
    static let secret = "meet me at the old lighthouse at nine"
    static let producerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let producerSpan = "00f067aa0ba902b7"
    static let replyTrace = "0af7651916cd43dd8448eb211c80319c"
    static let replySpan = "b7ad6b7169203331"

    @Test func spansContinueTheProducersTraceAndReachTheReceiver() async throws {
        let folder = try Paths.temporaryFolder("tracing")
        defer { try? FileManager.default.removeItem(at: folder) }
        let receiver = try OTLPReceiver(writingTo: folder.appendingPathComponent("spans.jsonl"))
        defer { receiver.stop() }
        let topology = TestTopology("trace")
        let probe = try await QueueProbe.open(topology)
        let prefix = topology.prefix
        let tap = RedGreenTaps.event(id: "\(prefix)-tap", request: "\(prefix)-n1")
        let reply = RedGreenTaps.event(
            id: "\(prefix)-reply", request: "\(prefix)-n2", action: .custom("reply-action"), userText: Self.secret)
        let untraced = RedGreenTaps.event(id: "\(prefix)-untraced", request: "\(prefix)-n3")
        let exchange = topology.topology.inputExchange
        try await probe.publish([
            RedGreenTaps.line(
                body: EventCodec.encode(tap), messageID: tap.id, exchange: exchange,
                headers: [
                    "traceparent": .string("00-\(Self.producerTrace)-\(Self.producerSpan)-01"),
                    "tracestate": .string("producer=a1"),
                ]),
            RedGreenTaps.line(
                body: EventCodec.encode(reply), messageID: reply.id, exchange: exchange,
                headers: ["traceparent": .string("00-\(Self.replyTrace)-\(Self.replySpan)-01")]),
            // Not a W3C traceparent: the worker starts a trace of its own rather than repeat it.
            RedGreenTaps.line(
                body: EventCodec.encode(untraced), messageID: untraced.id, exchange: exchange,
                headers: ["traceparent": .string("00-not-a-trace-01")]),
            RedGreenTaps.line(
                body: Array("not JSON {".utf8), messageID: "\(prefix)-garbage", exchange: exchange,
                headers: ["traceparent": .string("00-\(Self.producerTrace)-\(Self.replySpan)-01")]),
        ])

        let worker = try WorkerProcess(
            topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path,
            environment: [
                "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(receiver.port)",
                "OTEL_SERVICE_NAME": "responder-tracing-test",
            ])
        let updates = try await probe.takeUpdates(2)
        _ = try await probe.takeDeadLetters(1)
        try await waitFor("every input settled") { try await probe.count(topology.topology.inputQueue) == 0 }
        // The spans wait in the exporter's batch (5 s by default): stopping the worker must export them.
        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        let spans = try receiver.spans()

        #expect(spans.allSatisfy { $0.service == "responder-tracing-test" })
        #expect(!receiver.rawLines().contains(Self.secret), "no span says what the user typed")
        #expect(!receiver.exportedBytesHex().contains(Data(Self.secret.utf8).hexString), "nor does any byte exported")

        let process = try #require(spans.first { $0.name == "process" && $0.attributes["cloudevents.event_id"] == tap.id })
        #expect(process.traceID == Self.producerTrace && process.parentSpanID == Self.producerSpan)
        #expect(process.kind == 5, "a consumer span")
        #expect(process.attributes["responder.category"] == "red-category")
        #expect(process.attributes["responder.action"] == "rotate-twenty-degrees-action")
        #expect(process.attributes["responder.outcome"] == "updated")
        let handle = try #require(spans.first { $0.name == "handle" && $0.parentSpanID == process.spanID })
        #expect(handle.traceID == Self.producerTrace)
        #expect(spans.contains { $0.name == "commit" && $0.parentSpanID == handle.spanID && $0.traceID == Self.producerTrace })
        #expect(spans.contains { $0.name == "publish" && $0.parentSpanID == process.spanID && $0.kind == 4 })

        let update = try #require(updates.first { $0.properties.correlationID == tap.id })
        #expect(update.properties.headers["traceparent"] == .string("00-\(Self.producerTrace)-\(process.spanID)-01"))
        #expect(update.properties.headers["tracestate"] == .string("producer=a1"))

        let replied = try #require(spans.first { $0.name == "process" && $0.attributes["cloudevents.event_id"] == reply.id })
        #expect(replied.traceID == Self.replyTrace && replied.parentSpanID == Self.replySpan)
        #expect(replied.attributes["responder.action"] == "reply-action")

        let fresh = try #require(spans.first { $0.name == "process" && $0.attributes["cloudevents.event_id"] == untraced.id })
        #expect(fresh.parentSpanID == "" && fresh.traceID != Self.producerTrace && fresh.traceID != Self.replyTrace)
        let freshUpdate = try #require(updates.first { $0.properties.correlationID == untraced.id })
        #expect(freshUpdate.properties.headers["traceparent"] == .string("00-\(fresh.traceID)-\(fresh.spanID)-01"))

        let garbage = try #require(spans.first { $0.name == "process" && $0.attributes["messaging.message.id"] == "\(prefix)-garbage" })
        #expect(garbage.parentSpanID == Self.replySpan && garbage.status == 2, "a dead letter is an error")
        #expect(garbage.attributes["responder.outcome"] == "dead_lettered")
        #expect(garbage.attributes["responder.dead_letter_reason"] == "malformed-json")
        #expect(!spans.contains { $0.name == "handle" && $0.parentSpanID == garbage.spanID }, "nothing to handle")
        await probe.cleanUp()
    }
}
