import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// The PostgreSQL server stops (a fast shutdown: every session ends with 57P01) while a worker commits a stream of
/// taps with a full prefetch (more arrive while it is down), and starts again: the worker pauses and says why on `/health/ready`, hands back what
/// it holds, and once the server is back it checks it, resumes and consumes again. Every tap is counted exactly
/// once, every golden update arrives, nothing is dead-lettered or left in the queue.
///
/// This run stops the tests' server, so scripts/test runs it on its own, as it runs the fleet test.
@Suite(
    .enabled(if: TestBroker.isAvailable && SharedDatabase.isAvailable, "needs a broker and PostgreSQL: run scripts/test"),
    .timeLimit(.minutes(10)))
struct DatabaseOutageTests {
    @Test func aWorkerPausedByADatabaseOutageResumesOnceTheServerIsBack() async throws {
        let node = try BrokerNode.shared()
        let topology = TestTopology("database-outage")
        let probe = try await QueueProbe.open(topology)
        let publisher = try await QueueProbe.open(topology)
        let database = try await SharedDatabase.fresh()
        defer { database.close() }
        let run = try await TapRun(topology, notifications: 40, tapsEach: 30)
        let worker = try WorkerProcess(
            topology: topology, statePath: database.state, workingDirectory: try Paths.temporaryFolder("database-outage"))
        defer { if worker.isRunning { worker.send(SIGKILL) } }
        try await worker.waitUntilReady()

        // Two thirds stream in while the server stops under the commits in flight; the last third goes out once it
        // is down, so the worker meets the outage however fast it was.
        let split = run.lines.count * 2 / 3
        let streaming = Task { try await publisher.publish(Array(run.lines[..<split])) }
        try await waitFor("the worker to commit 100 inputs") {
            try await worker.metric("responder_events_total") >= 100
        }
        try await database.outage.stop()
        try await streaming.value
        try await publisher.publish(Array(run.lines[split...]))
        try await waitFor("the worker to pause") { await worker.status(of: "/health/ready") == 503 }
        let reasons = await worker.text(of: "/health/ready") ?? ""
        #expect(reasons.contains("the state store is unavailable"), "\(reasons)")
        #expect(try await worker.metric("responder_store_paused") == 1)
        try await database.outage.start()
        try await worker.waitUntilReady()
        // The log line comes after readiness: wait for it.
        try await worker.waitForLog("the state store answers again: resuming")
        #expect(try await worker.metric("responder_store_paused") == 0)
        #expect(try await worker.metric("responder_store_outages_total") >= 1)
        let handedBack = Int(try await worker.metric(#"responder_events_total{outcome="handed_back"}"#))

        let result = try await run.finishOnBroker(on: node, topology: topology, probe: probe, workers: [worker])
        try await run.checkStore(database.store, received: result.received)
        print(
            "reliability: PostgreSQL stopped under a worker committing \(run.lines.count) taps: paused (\(reasons)),",
            "\(handedBack) held inputs handed back uncounted, resumed once the server was back;",
            "\(result.updates) updates (\(result.repeats) repeats), \(result.retried) retried, tap counts exact, nothing",
            "dead-lettered or unacknowledged")
        await publisher.cleanUp()
        await probe.cleanUp()
    }
}
