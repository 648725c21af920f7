import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// Ordered mode through a store outage: the state file fills up (a genuine SQLITE_FULL) while a stream where order
/// matters comes in on two shards. The worker pauses with the inputs it holds waiting in place, unacknowledged, on
/// its consumers (none handed back to the back of a shard, where a notification's later events would overtake
/// them); once pruning makes room it resumes by itself, and every notification's updates equal a serial replay's,
/// in order, with nothing dead-lettered.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct OrderedStoreOutageTests {
    @Test func aFullStateHoldsTheInputsInPlaceAndEachNotificationKeepsItsOrder() async throws {
        let node = try BrokerNode.shared()
        let topology = TestTopology("ordered-store-full", shards: 2)
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder("ordered-store-full")
        let state = folder.appendingPathComponent("state.sqlite").path
        let stream = try await OrderedRun(topology, notifications: 40, eventsEach: 30)
        let size = try await CrowdedState.create(at: state)
        // 64 KiB of room: the stream's inbox entries need several times that.
        let worker = try WorkerProcess(
            topology: topology, statePath: state, environment: ["RESPONDER_MAX_STATE_SIZE": "\(size + 65_536)"])
        defer { if worker.isRunning { worker.send(SIGKILL) } }
        try await worker.waitUntilReady()

        try await probe.publish(stream.lines)
        try await waitFor("the state file to fill and the worker to pause") {
            (try? await worker.metric("responder_store_paused")) == 1
        }
        // Readiness follows the metric; the log line follows both.
        try await worker.waitForLog("the state store is unavailable: pausing")
        // The worker's own account (rabbitmqctl's counts of a quorum queue can lag by seconds): the inputs it held
        // when the store failed are still in flight, none handed back.
        let held = Int(try await worker.metric("responder_in_flight_events"))
        #expect(held > 0, "the inputs in hand wait in place")
        #expect(try await worker.metric(#"responder_events_total{outcome="handed_back"}"#) == 0)
        #expect(await worker.status(of: "/health/ready") == 503)

        #expect(try await CrowdedState.makeRoom(at: state) == CrowdedState.oldEntries)
        try await worker.waitUntilReady()
        try await waitUntilSettled(topology, on: node, probe: probe, workers: [worker])
        #expect(try await worker.metric(#"responder_events_total{outcome="handed_back"}"#) == 0, "nothing handed back")
        #expect(try await worker.metric("responder_in_flight_events") == 0)
        #expect(try await worker.metric("responder_store_outages_total") >= 1)
        let updates = try await probe.takeUpdates(stream.goldenUpdateCount)
        let deadLetters = try await probe.count(topology.topology.deadLetterQueue)
        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0, "a graceful stop exits 0")

        let comparison = try await stream.compare(updates, statePath: state)
        #expect(comparison.differentUpdates.isEmpty,
                "\(comparison.differentUpdates.count) notifications' updates differ from the replay; \(comparison.example)")
        #expect(comparison.differentFinalState.isEmpty, "final state differs: \(comparison.differentFinalState.prefix(5))")
        #expect(deadLetters == 0)
        #expect(worker.logText.contains("inputs in hand wait in place, in order"))
        print(
            "ordered mode: state file capped at \(size + 65_536) bytes under \(stream.lines.count) events on 2 shards:",
            "paused (SQLITE_FULL) with \(held) inputs held in place, resumed after pruning; \(updates.count) updates",
            "(\(comparison.repeats) repeats), \(comparison.differentUpdates.count) notifications out of the replay's order,",
            "\(deadLetters) dead letters")
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }
}
