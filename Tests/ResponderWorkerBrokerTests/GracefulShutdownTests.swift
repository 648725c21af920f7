import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Testing
import WorkerHarness

/// SIGTERM in the middle of a stream (at the worker's 20th commit): the worker finishes what it holds, acknowledges it and exits 0; a second
/// worker on the same state finishes the rest, and every owed update arrives exactly once.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct GracefulShutdownTests {
    @Test func sigtermFinishesWhatIsInHandAndLosesNothing() async throws {
        let stream = try await StreamInProgress.start("sigterm", signal: "TERM")
        let first = stream.worker
        #expect(try await first.waitForExit() == 0)
        #expect(first.logText.contains("SIGTERM"), "the stop came at the 20th commit")
        #expect(first.logText.contains("stopped"), "a graceful stop, not a crash")

        #expect(try await stream.inputsLeft() > 0, "the worker stopped mid-stream")

        // Once a worker is gone the broker requeues whatever it left unacknowledged, so the queue's unacknowledged
        // count proves nothing now. What does: an input the first worker handled but did not acknowledge comes
        // back to the second as a duplicate, which it logs as such and which publishes its update a second time.
        let second = try await stream.secondWorker()
        var updates = try await stream.probe.collectUpdates(stream.check.expectedMessageIDs)
        try await waitFor("the second worker to take the rest") { try await stream.inputsLeft() == 0 }
        second.send(SIGTERM)
        #expect(try await second.waitForExit() == 0)
        #expect(second.logText.contains("outcome=no_update"), "the second worker handled the rest")
        #expect(!second.logText.contains("outcome=deduplicated"), "nothing handled by the first came back")

        updates += try await stream.probe.take(0, from: stream.topology.topology.outputQueue, timeout: .zero)
        #expect(stream.check.problems(updates) == [])
        #expect(updates.count == stream.check.expectedMessageIDs.count, "each update exactly once: nothing was redelivered")
        let left = try await stream.finish()
        #expect(left.inputsLeft == 0 && left.deadLetters == 0)
    }

    /// While a graceful stop waits for an input in hand (one retried in place in ordered mode, its 60 s delay longer
    /// than the 15 s grace period, so the stop lasts the whole grace period whenever it starts), the HTTP server still
    /// answers: /health/ready says 503 with the reason and /metrics shows the input in flight, so a probe or a scrape
    /// during the drain sees the worker stopping, not a refused connection. The input is left to the broker.
    @Test func healthAndMetricsAnswerUntilTheGracePeriodEnds() async throws {
        let topology = TestTopology("drain-http", retryDelays: [60], shards: 1)
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let worker = try WorkerProcess(
            topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path,
            environment: ["RESPONDER_FAULT": "after-handler:1:FAIL", "RESPONDER_GRACE_PERIOD": "15"])
        try await worker.waitUntilReady()
        let request = RedGreenTaps.request(topology.prefix, 1)
        let tap = RedGreenTaps.event(id: RedGreenTaps.tapID(topology.prefix, 1, 1), request: request)
        try await probe.publish([
            RedGreenTaps.line(
                body: EventCodec.encode(tap), messageID: tap.id, routingKey: request, exchange: topology.topology.inputExchange)
        ])
        try await waitFor("the injected failure") {
            try await worker.metric(#"responder_handler_failures_total{retryable="true"}"#) >= 1
        }

        worker.send(SIGTERM)
        try await waitFor("/health/ready to say the worker is shutting down") {
            await worker.text(of: "/health/ready")?.contains("shutting down") == true
        }
        #expect(await worker.status(of: "/health/ready") == 503)
        #expect(try await worker.metric("responder_in_flight_events") == 1, "the retried input is still in hand")
        let status = try await worker.waitForExit()
        // The broker requeues an unacknowledged input once it has processed the closed connection, which can come
        // a moment after the process is gone: wait for that, then check nothing else came back.
        let shard = topology.topology.consumedQueues[0]
        try await waitFor("the input to go back to its shard (the worker exited \(status))") {
            try await probe.count(shard) >= 1
        }
        #expect(try await probe.count(shard) == 1, "the input went back to its shard, once: \(status)")
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }
}
