import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// A worker told to use quorum output queues on a broker that already holds a classic output queue of that name:
/// RabbitMQ cannot change a queue's type, so the worker stops at once, exit status 1, saying which queue and what
/// to do, rather than reconnecting for ever or crashing; the classic queue and what it holds stay as they were.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct QueueTypeMismatchTests {
    @Test func aClassicOutputQueueStopsAWorkerAskingForQuorumWithTheWayOut() async throws {
        let topology = TestTopology("queue-type")
        let probe = try await QueueProbe.open(topology)
        let worker = try WorkerProcess(
            topology: topology, statePath: try Paths.temporaryFolder().appendingPathComponent("state.sqlite").path,
            environment: ["RESPONDER_OUTPUT_QUEUE_TYPE": "quorum"])
        defer { if worker.isRunning { worker.send(SIGKILL) } }

        #expect(try await worker.waitForExit() == 1)
        let log = worker.logText
        #expect(log.contains("queue \(topology.topology.outputQueue) exists on the broker with other arguments"), "\(log)")
        #expect(log.contains("x-queue-type"), "the broker's reply names the argument")
        #expect(log.contains("delete it, then start the workers"))
        #expect(!log.contains("broker connection failed; reconnecting"))
        #expect(try await probe.count(topology.topology.outputQueue) == 0, "the classic queue is still there")
        await probe.cleanUp()
    }
}
