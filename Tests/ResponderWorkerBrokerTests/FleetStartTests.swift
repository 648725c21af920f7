import AMQP
import BrokerHarness
import Foundation
import ResponderWorker
import Testing
import WorkerHarness

/// Workers of an ordered fleet started at the same moment on a fresh broker (what a Kubernetes Deployment does) all
/// come up: one worker's shard-layout check may read the layout while another is still declaring it.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct FleetStartTests {
    /// The broker as a fleet member leaves it half-way through declaring: the last shard (declared first) is there,
    /// shard 0 not yet. Without the check's read order this was taken for a smaller layout and the worker exited
    /// ("the broker holds fewer than 4 shard queues"); the interleaving is made here, not waited for.
    @Test func aLayoutBeingDeclaredIsNotARefusal() async throws {
        let topology = TestTopology("half-declared", shards: 4)
        let connection = try await TestBroker.connect(name: #function)
        let channel = try await connection.openChannel()
        let lastShard = try #require(topology.topology.declarations.queues.first)
        #expect(lastShard.name == topology.topology.shardQueue(3))
        try await lastShard.declare(on: channel)

        let folder = try Paths.temporaryFolder("half-declared")
        defer { try? FileManager.default.removeItem(at: folder) }
        let worker = try WorkerProcess(
            topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path)
        // A refusing worker exits at once: wait for either, so the refusal shows as itself and not as a time-out.
        try await waitFor("worker ready or exited") {
            await worker.status(of: "/health/ready") == 200 || !worker.isRunning
        }
        #expect(worker.isRunning, "\(worker.logText)")
        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0, "\(worker.logText)")
        await topology.delete(on: channel)
        await connection.close()
    }

    /// Three workers with `--shards 4` started together on a broker without the topology all become ready and
    /// stay up.
    @Test func threeWorkersStartedAtOnceAllComeUp() async throws {
        let topology = TestTopology("fleet-start", shards: 4)
        let folder = try Paths.temporaryFolder("fleet-start")
        defer { try? FileManager.default.removeItem(at: folder) }
        let workers = try (0..<3).map { index in
            try WorkerProcess(topology: topology, statePath: folder.appendingPathComponent("state-\(index).sqlite").path)
        }
        for worker in workers {
            try await worker.waitUntilReady()
            #expect(worker.isRunning, "\(worker.logText)")
        }
        for worker in workers { worker.send(SIGTERM) }
        for worker in workers { #expect(try await worker.waitForExit() == 0, "\(worker.logText)") }
        let connection = try await TestBroker.connect(name: #function)
        await topology.delete(on: try await connection.openChannel())
        await connection.close()
    }
}
