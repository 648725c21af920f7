import AMQP
import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// The broker closes one of the worker's two connections in the middle of a stream: the worker reconnects and
/// finishes the stream with every owed update, whichever connection was lost. Both closed under load, with the
/// worker held off the broker and not ready meanwhile, is ReliabilityTests' `BrokerFaultTests`.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct ForcedCloseTests {
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
        let updates = try await probe.collectUpdates(stream.check.expectedMessageIDs)
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
        try await waitFor("the worker to start over") {
            try await worker.metric("responder_reconnects_total") >= 1
        }
        try await worker.waitUntilReady()
        let stream = try await PacedStream.start(topology)
        try await stream.finishPublishing()
        let updates = try await probe.collectUpdates(stream.check.expectedMessageIDs)
        #expect(stream.check.problems(updates) == [])

        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        #expect(try await probe.count(topology.topology.inputQueue) == 0)
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }
}
