import AMQP
import Foundation
import Testing
import WorkerHarness

/// The broker closes the worker's connections in the middle of a stream: the worker says it is not ready while it
/// cannot get back, reconnects with backoff, and finishes the stream with every owed update, whichever of its two
/// connections was lost.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(3)))
struct ForcedCloseTests {
    @Test func notReadyWhileAwayThenReconnectsAndFinishesTheStream() async throws {
        let topology = TestTopology("forced-close")
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        // A user of the test's own, whose permissions the test can take away without disturbing other tests: with
        // them gone the worker cannot reconnect, which holds the not-ready window open long enough to see.
        let user = "\(topology.prefix)-user"
        let password = "pw-\(UUID().uuidString)"
        try await TestBroker.ctl("add_user", user, password)
        try await TestBroker.ctl("set_permissions", "-p", "/", user, ".*", ".*", ".*")
        let broker = try AMQPConfiguration(url: TestBroker.url ?? "")
        let worker = try WorkerProcess(
            topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path,
            environment: ["RESPONDER_AMQP_URL": "amqp://\(user):\(password)@\(broker.host):\(broker.port)/%2F"])
        let workerID = "\(topology.prefix)-\(worker.metricsPort)"
        try await worker.waitUntilReady()
        let stream = try await PacedStream.start(topology)
        try await waitFor("the first updates") { try await probe.count(topology.topology.outputQueue) >= 3 }

        try await TestBroker.ctl("clear_permissions", "-p", "/", user)
        try await TestBroker.forceClose(connectionsNamed: workerID)
        try await waitFor("/health/ready to say not ready") { await worker.status(of: "/health/ready") == 503 }
        #expect(await worker.status(of: "/health/live") == 200, "alive while disconnected")
        try await waitFor(timeout: .seconds(20), "inputs to wait for the worker") {
            try await probe.count(topology.topology.inputQueue) > 0
        }

        try await TestBroker.ctl("set_permissions", "-p", "/", user, ".*", ".*", ".*")
        try await worker.waitUntilReady()
        try await stream.finishPublishing()
        let updates = try await probe.collectUpdates(stream.check.expectedMessageIDs)
        #expect(stream.check.problems(updates) == [])
        #expect(try await worker.metric("responder_reconnects_total") >= 1)

        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        #expect(try await probe.count(topology.topology.inputQueue) == 0)
        #expect(try await probe.count(topology.topology.deadLetterQueue) == 0)
        #expect(!worker.logText.contains(password), "the password never shows in the log")
        try await TestBroker.ctl("delete_user", user)
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Losing only one of the two connections is enough to start over on both.
    @Test(arguments: ["consumer", "publisher"])
    func losingOneConnectionReconnectsAndFinishesTheStream(closing role: String) async throws {
        let topology = TestTopology("close-\(role)")
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let worker = try WorkerProcess(topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path)
        try await worker.waitUntilReady()
        let stream = try await PacedStream.start(topology)
        try await waitFor("the first updates") { try await probe.count(topology.topology.outputQueue) >= 3 }

        // The worker names its connections "responder <worker id> consumer" and "... publisher".
        let workerID = "\(topology.prefix)-\(worker.metricsPort)"
        #expect(try await TestBroker.forceClose(connectionsNamed: "\(workerID) \(role)") == 1)
        try await stream.finishPublishing()
        let updates = try await probe.collectUpdates(stream.check.expectedMessageIDs, timeout: .seconds(60))
        #expect(stream.check.problems(updates) == [])
        #expect(try await worker.metric("responder_reconnects_total") >= 1)

        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        #expect(try await probe.count(topology.topology.inputQueue) == 0)
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }

    /// With no input arriving, nothing would publish and find the publishing connection gone: its loss alone ends
    /// the session, so the worker starts over instead of staying ready with nothing to publish on.
    @Test func anIdleWorkerStartsOverWhenItsPublishingConnectionIsLost() async throws {
        let topology = TestTopology("idle-publisher")
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let worker = try WorkerProcess(topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path)
        try await worker.waitUntilReady()

        let workerID = "\(topology.prefix)-\(worker.metricsPort)"
        #expect(try await TestBroker.forceClose(connectionsNamed: "\(workerID) publisher") == 1)
        try await waitFor(timeout: .seconds(30), "the worker to start over") {
            try await worker.metric("responder_reconnects_total") >= 1
        }
        try await worker.waitUntilReady()
        let stream = try await PacedStream.start(topology)
        try await stream.finishPublishing()
        let updates = try await probe.collectUpdates(stream.check.expectedMessageIDs, timeout: .seconds(60))
        #expect(stream.check.problems(updates) == [])

        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        #expect(try await probe.count(topology.topology.inputQueue) == 0)
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }
}
