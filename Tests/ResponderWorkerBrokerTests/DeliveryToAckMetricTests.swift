import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// The delivery-to-ack histogram (`responder_end_to_end_duration_seconds`) counts each acked input once, timed by
/// the acknowledger from its delivery's read (the unit tests of the state machine and AckTracker pin where the time
/// starts): what `scripts/bench --latency` reads.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct DeliveryToAckMetricTests {
    @Test func everyAckedInputIsTimedOnce() async throws {
        let topology = TestTopology("delivery-to-ack")
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let worker = try WorkerProcess(topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path)
        try await worker.waitUntilReady()
        let taps = RedGreenTaps.stream(
            prefix: topology.prefix, notifications: 2, tapsEach: 3, exchange: topology.topology.inputExchange)
        try await probe.publish(taps)
        try await waitFor("every input timed") {
            try await worker.metric("responder_end_to_end_duration_seconds_count") >= Double(taps.count)
        }
        // Every input is acked and its update out by now: a count past six would be an input timed twice.
        _ = try await probe.takeUpdates(RedGreenTaps.expectedUpdates(taps: 3).count * 2)
        #expect(try await worker.metric("responder_end_to_end_duration_seconds_count") == Double(taps.count))
        #expect(try await worker.metric("responder_end_to_end_duration_seconds_sum") > 0)
        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }
}
