import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import Testing
import WorkerHarness

/// The state file fills up while events stream in: the worker pauses (a genuine SQLITE_FULL, from the file's size
/// limit, SQLite's max_page_count), reports not ready with the reason, logs the outage once, and hands the inputs it
/// held back to the queue, uncounted. Once pruning makes room it resumes by itself: every tap is counted exactly
/// once, every golden update arrives, nothing is dead-lettered or left in the queue.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct StoreFullTests {
    @Test func aFullStatePausesTheWorkerUntilPruningMakesRoom() async throws {
        let node = try BrokerNode.shared()
        let topology = TestTopology("store-full", deliveryLimit: 1)
        let probe = try await QueueProbe.open(topology)
        let publisher = try await QueueProbe.open(topology)
        let state = try Paths.temporaryFolder().appendingPathComponent("state.sqlite").path
        let run = try await TapRun(topology, notifications: 12, tapsEach: 100)

        let size = try await CrowdedState.create(at: state)
        // 64 KiB of room: the 1,200 taps need several times that.
        let worker = try WorkerProcess(
            topology: topology, statePath: state, environment: ["RESPONDER_MAX_STATE_SIZE": "\(size + 65_536)"])
        defer { if worker.isRunning { worker.send(SIGKILL) } }
        try await worker.waitUntilReady()

        let streaming = Task { try await publisher.publishStreaming(run.lines) }
        // The pause itself, not any not-ready: the broker's own alarms also make readiness 503.
        try await waitFor("the state file to fill and the worker to pause") {
            (try? await worker.metric("responder_store_paused")) == 1
        }
        // The log gives the reason, in a line written after the metric and readiness.
        try await worker.waitForLog("database or disk is full (SQLITE_FULL")
        let reasons = await worker.text(of: "/health/ready") ?? ""
        #expect(reasons.contains("the state store is unavailable"), "\(reasons)")
        #expect(await worker.status(of: "/health/ready") == 503)
        try await streaming.value
        let updatesWhilePaused = try await probe.count(topology.topology.outputQueue)
        let waitingWhilePaused = try await probe.count(topology.topology.inputQueue)
        #expect(waitingWhilePaused > 0, "the inputs wait in the queue")
        #expect(await worker.status(of: "/health/ready") == 503, "nothing cured the store yet")

        #expect(try await CrowdedState.makeRoom(at: state) == CrowdedState.oldEntries)
        try await worker.waitUntilReady()
        #expect(try await worker.metric("responder_store_paused") == 0)
        let handedBack = try await worker.metric(#"responder_events_total{outcome="handed_back"}"#)
        #expect(handedBack > 0, "the inputs it held went back to the queue")
        #expect(try await worker.metric("responder_store_outages_total") == 1)
        #expect(try await worker.metric(#"responder_events_total{outcome="retried"}"#) == 0, "a full store is no failure")

        let result = try await run.finish(on: node, topology: topology, probe: probe, workers: [worker], statePath: state)
        let pauseLines = worker.logText.split(separator: "\n").filter { $0.contains("the state store is unavailable: pausing") }
        #expect(pauseLines.count == 1, "the outage is logged once, not per input")
        print(
            "reliability: state file capped at \(size + 65_536) bytes while streaming \(run.lines.count) taps: paused",
            "(SQLITE_FULL) with \(updatesWhilePaused) of \(run.goldenUpdateCount) updates out and \(waitingWhilePaused)",
            "inputs waiting, \(Int(handedBack)) held inputs handed back uncounted, readiness 503 then 200 after pruning",
            "\(CrowdedState.oldEntries) old entries; \(result.updates) updates (\(result.repeats) repeats), tap counts exact,",
            "nothing dead-lettered or unacknowledged")
        await publisher.cleanUp()
        await probe.cleanUp()
    }
}
