import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// The database changes under a worker committing a stream of taps: the `inbox` table is renamed away (as a
/// botched migration or an operator's slip would) and back. Every statement of the store fails on it, but no
/// event is to blame: the worker pauses and says so on `/health/ready`, logs what the server said, dead-letters
/// and retries nothing, and once the table is back it prepares its statements afresh, resumes by itself and every
/// tap is counted exactly once. Renamed mid-stream (the issue's reproduction), or before the first input, so that
/// every connection of the pool first prepares its statements while the table is gone: postgres-nio keeps such a
/// failed preparation as the statement's answer for the connection's life. The change is to a schema of the test's
/// own, so it runs beside the other tests.
@Suite(
    .enabled(if: TestBroker.isAvailable && SharedDatabase.isAvailable, "needs a broker and PostgreSQL: run scripts/test"),
    .timeLimit(.minutes(10)))
struct DatabaseSchemaChangeTests {
    @Test(arguments: [50, 0])
    func aRenamedTablePausesTheWorkerAndItResumesOnceTheTableIsBack(committedBefore: Int) async throws {
        let node = try BrokerNode.shared()
        let topology = TestTopology("schema-change")
        let probe = try await QueueProbe.open(topology)
        let publisher = try await QueueProbe.open(topology)
        let database = try await SharedDatabase.fresh()
        defer { database.close() }
        let run = try await TapRun(topology, notifications: 20, tapsEach: 30)
        let worker = try WorkerProcess(
            topology: topology, statePath: database.state, workingDirectory: try Paths.temporaryFolder("schema-change"))
        defer { if worker.isRunning { worker.send(SIGKILL) } }
        try await worker.waitUntilReady()

        let split = committedBefore == 0 ? 0 : run.lines.count / 3
        try await publisher.publish(Array(run.lines[..<split]))
        try await waitFor("the worker to commit \(committedBefore) inputs") {
            try await worker.metric("responder_events_total") >= Double(committedBefore)
        }
        try await database.outage.psql("ALTER TABLE \(database.schema).inbox RENAME TO inbox_away")
        try await publisher.publish(Array(run.lines[split...]))
        try await waitFor("the worker to pause") { await worker.status(of: "/health/ready") == 503 }
        // Readiness answers anyone who reaches the port: it says what is wrong, not what the database said.
        let reasons = await worker.text(of: "/health/ready") ?? ""
        #expect(
            reasons.trimmingCharacters(in: .whitespacesAndNewlines)
                == "not ready: the state store is unavailable; inputs wait in the queue", "\(reasons)")
        #expect(try await worker.metric("responder_store_paused") == 1)
        // Paused, it keeps checking the store and finds the table still gone.
        try await waitFor("the worker to check the store again") {
            worker.logText.contains("the state store is still unavailable")
        }
        #expect(await worker.status(of: "/health/ready") == 503)
        // The log says what the server said, once for the pause.
        let serverSaid = worker.logText.components(separatedBy: #"PostgreSQL: 42P01 relation "inbox" does not exist"#).count - 1
        #expect(serverSaid == 1, "\(worker.logText.suffix(3000))")

        try await database.outage.psql("ALTER TABLE \(database.schema).inbox_away RENAME TO inbox")
        try await worker.waitUntilReady()
        let result = try await run.finishOnBroker(on: node, topology: topology, probe: probe, workers: [worker])
        try await run.checkStore(database.store, received: result.received)
        #expect(result.retried == 0, "no input counted a failure of the store against itself")
        print(
            "reliability: the inbox table renamed away after \(committedBefore) of \(run.lines.count) taps: paused",
            "(\(reasons)), resumed once it was back; \(result.updates) updates, \(result.retried) retried, tap counts",
            "exact, nothing dead-lettered or unacknowledged")
        await publisher.cleanUp()
        await probe.cleanUp()
    }
}
