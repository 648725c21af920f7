import BrokerHarness
import Foundation
import NotificationEvents
import Testing
import WorkerHarness

/// Three `responder run` processes on one input queue and one SQLite state file: every tap has exactly one effect
/// and each notification ends with its exact count, although the broker hands one notification's events to
/// different workers at once (optimistic concurrency makes the loser of a race handle its event again).
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct SeveralWorkersTests {
    @Test func threeWorkersShareAQueueAndAStateFile() async throws {
        let node = try BrokerNode.shared()
        let topology = TestTopology("three-workers")
        let probe = try await QueueProbe.open(topology)
        let state = try Paths.temporaryFolder().appendingPathComponent("state.sqlite").path
        let run = try await TapRun(topology, notifications: 20, tapsEach: 30)

        let workers = try (1...3).map { _ in try WorkerProcess(topology: topology, statePath: state) }
        for worker in workers { try await worker.waitUntilReady() }
        try await run.publish(on: probe)
        let result = try await run.finish(
            on: node, topology: topology, probe: probe, workers: workers, statePath: state)
        // An input whose conflicts outlast the pipeline's retries goes through a retry queue and is settled twice.
        #expect(result.settledPerWorker.reduce(0, +) == run.lines.count, "settled, retries aside: \(result.settledPerWorker)")
        #expect(result.settledPerWorker.allSatisfy { $0 > 0 }, "every worker must take part: \(result.settledPerWorker)")
        #expect(result.repeats == 0, "no crash, so no update may repeat")

        let order = try run.orderReport(result.received)
        print(
            "reliability: 3 workers, \(run.lines.count) taps on \(run.notifications) notifications: settled per worker",
            "\(result.settledPerWorker), \(result.conflicts) version conflicts handled again, \(result.retried) sent to retry,",
            "tap counts exact, updates in version order golden; \(order.outOfVersionOrder) notifications' updates",
            "arrived out of version order, \(order.lastArrivedNotNewest) with an older version arriving last")
        await probe.cleanUp()
    }
}
