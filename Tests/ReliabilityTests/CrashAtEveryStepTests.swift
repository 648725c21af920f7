import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// A worker killed with SIGKILL at each step between an input's handlers and its acknowledgement (RESPONDER_FAULT),
/// then restarted on the same state file, loses nothing and doubles nothing: 300 rotate taps over 12 notifications
/// leave every notification's exact tap count and its golden updates (a repeat carries the same message id and
/// bytes), and no input is left unacknowledged or dead-lettered.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct CrashAtEveryStepTests {
    /// Every tap passes the handler and commit steps (300 times); only the 60 taps that change buttons publish, so
    /// they pass the publish and confirm steps. Each kill lands mid-stream.
    @Test(arguments: zip(["after-handler", "after-commit", "after-publish", "after-confirm"], [150, 150, 30, 30]))
    func killedAtAStepAndRestarted(step: String, occurrence: Int) async throws {
        let node = try BrokerNode.shared()
        let topology = TestTopology("crash-\(step)")
        let probe = try await QueueProbe.open(topology)
        let state = try Paths.temporaryFolder().appendingPathComponent("state.sqlite").path
        let run = try await TapRun(topology, notifications: 12, tapsEach: 25)

        let doomed = try WorkerProcess(
            topology: topology, statePath: state, environment: ["RESPONDER_FAULT": "\(step):\(occurrence)"])
        try await doomed.waitUntilReady()
        try await run.publish(on: probe)
        #expect(try await doomed.waitForExit() == SIGKILL)
        #expect(doomed.logText.contains("RESPONDER_FAULT: \(step) reached \(occurrence) times, SIGKILL"))
        let updatesBeforeRestart = try await probe.count(topology.topology.outputQueue)

        let survivor = try WorkerProcess(topology: topology, statePath: state)
        try await survivor.waitUntilReady()
        let result = try await run.finish(
            on: node, topology: topology, probe: probe, workers: [survivor], statePath: state)
        print(
            "reliability: SIGKILL at \(step) #\(occurrence): \(run.lines.count) inputs, \(updatesBeforeRestart) updates before",
            "the restart, \(result.redelivered) redelivered inputs found in the inbox after it, \(result.updates) updates",
            "(\(run.goldenUpdateCount) golden + \(result.repeats) repeats), tap counts exact, nothing unacknowledged")
        await probe.cleanUp()
    }

    /// The same kill between a commit and its publish on a PostgreSQL store: the restarted worker finds the committed
    /// inputs in the shared inbox and publishes each of their updates once.
    @Test(.enabled(if: SharedDatabase.isAvailable, "needs PostgreSQL: run scripts/test"))
    func killedAfterACommitOnPostgreSQLAndRestarted() async throws {
        let node = try BrokerNode.shared()
        let topology = TestTopology("crash-pg-after-commit")
        let probe = try await QueueProbe.open(topology)
        let database = try await SharedDatabase.fresh()
        defer { database.close() }
        let run = try await TapRun(topology, notifications: 12, tapsEach: 25)
        let worker = { (environment: [String: String]) in
            try WorkerProcess(
                topology: topology, statePath: database.state, environment: environment,
                workingDirectory: try Paths.temporaryFolder("crash-pg-worker"))
        }

        let doomed = try worker(["RESPONDER_FAULT": "after-commit:150"])
        try await doomed.waitUntilReady()
        try await run.publish(on: probe)
        #expect(try await doomed.waitForExit() == SIGKILL)
        #expect(doomed.logText.contains("RESPONDER_FAULT: after-commit reached 150 times, SIGKILL"))

        let survivor = try worker([:])
        try await survivor.waitUntilReady()
        let result = try await run.finishOnBroker(on: node, topology: topology, probe: probe, workers: [survivor])
        try await run.checkStore(database.store, received: result.received)
        await probe.cleanUp()
    }
}
