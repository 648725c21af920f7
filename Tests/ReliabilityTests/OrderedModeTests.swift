import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// Ordered mode (`--shards 4`) with three workers on one SQLite state file: a stream of RedGreen taps and resets on
/// many notifications, where order changes the outcome, must leave each notification's updates in the order of its
/// events and equal to a serial replay of the same fixture: plainly, with the active consumer of a shard SIGKILLed
/// mid-stream, and with a retryable handler failure in the middle of a notification's events. The same stream
/// without ordered mode is measured, not judged: the report says how many notifications ended otherwise there.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)), .serialized)
struct OrderedModeTests {
    static let notifications = 100
    static let eventsEach = 30
    static let shards = 4

    /// What one run did, for the report and the checks.
    struct Outcome {
        var comparison: OrderedRun.Comparison
        var settledPerWorker: [Int]
        var retriedInPlace: Int
        var deadLetters: Int
    }

    /// Publishes the stream to three fresh workers, lets `midStream` act, waits until every input is settled and
    /// compares the outcome with the serial replay. The first worker, started with `firstWorkerEnvironment` added,
    /// is ready before the others start, so it holds every shard at first and hands the others their share while
    /// the stream is handled (the order checks span those hand-overs). Workers still running at the end are
    /// stopped gracefully and must exit 0.
    private func run(
        _ label: String, shards: Int, firstWorkerEnvironment: [String: String] = [:],
        midStream: (@Sendable (WorkerProcess) async throws -> Void)? = nil
    ) async throws -> Outcome {
        let node = try BrokerNode.shared()
        let topology = TestTopology(label, shards: shards)
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder(label)
        let state = folder.appendingPathComponent("state.sqlite").path
        let stream = try await OrderedRun(topology, notifications: Self.notifications, eventsEach: Self.eventsEach)
        let first = try WorkerProcess(topology: topology, statePath: state, environment: firstWorkerEnvironment)
        try await first.waitUntilReady()
        let workers = [first] + (try (2...3).map { _ in try WorkerProcess(topology: topology, statePath: state) })
        for worker in workers { try await worker.waitUntilReady() }
        try await probe.publish(stream.lines)
        if let midStream { try await midStream(first) }
        let living = workers.filter(\.isRunning)
        try await waitUntilSettled(topology, on: node, probe: probe, workers: living)
        var settled: [Int] = []
        var failures = 0
        for worker in living {
            settled.append(Int(try await worker.metric("responder_events_total")))
            failures += Int(try await worker.metric(#"responder_handler_failures_total{retryable="true"}"#))
        }
        let updates = try await probe.takeUpdates(stream.goldenUpdateCount)
        let deadLetters = try await probe.count(topology.topology.deadLetterQueue)
        for worker in living { worker.send(SIGTERM) }
        for worker in living { #expect(try await worker.waitForExit() == 0, "a graceful stop exits 0") }
        let comparison = try await stream.compare(updates, statePath: state)
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
        return Outcome(comparison: comparison, settledPerWorker: settled, retriedInPlace: failures, deadLetters: deadLetters)
    }

    private func expectSerialOrder(_ outcome: Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
        let comparison = outcome.comparison
        #expect(comparison.differentUpdates.isEmpty,
                "\(comparison.differentUpdates.count) notifications' updates differ from the replay; \(comparison.example)",
                sourceLocation: sourceLocation)
        #expect(comparison.differentFinalState.isEmpty,
                "final state differs from the replay: \(comparison.differentFinalState.prefix(5))",
                sourceLocation: sourceLocation)
        #expect(outcome.deadLetters == 0, sourceLocation: sourceLocation)
    }

    private func report(_ what: String, _ outcome: Outcome) {
        print(
            "ordered mode: \(what): \(Self.notifications * Self.eventsEach) events on \(Self.notifications) notifications,",
            "settled per worker \(outcome.settledPerWorker), \(outcome.retriedInPlace) retryable failures;",
            "\(outcome.comparison.differentUpdates.count) notifications' updates and",
            "\(outcome.comparison.differentFinalState.count) final states differ from a serial replay;",
            "\(outcome.comparison.repeats) updates repeated")
    }

    @Test func threeWorkersHandleEachNotificationInTheOrderOfItsEvents() async throws {
        let outcome = try await run("ordered", shards: Self.shards)
        expectSerialOrder(outcome)
        #expect(outcome.comparison.repeats == 0, "no crash, so no update may repeat")
        report("3 workers, \(Self.shards) shards", outcome)
    }

    /// The first worker SIGKILLs itself at its 300th publication, outputs handed to the connection and not
    /// confirmed: once its membership expires the others take its shards, the broker redelivers what the dead one
    /// held, and the inbox keeps the redelivered inputs from counting twice.
    @Test func killingTheActiveConsumerMidStreamKeepsTheOrder() async throws {
        let outcome = try await run(
            "ordered-kill", shards: Self.shards, firstWorkerEnvironment: ["RESPONDER_FAULT": "after-publish:300"]
        ) { first in
            let status = try await first.waitForExit()
            #expect(status != 0, "killed by its fault")
        }
        expectSerialOrder(outcome)
        #expect(outcome.settledPerWorker.count == 2, "one worker was killed")
        #expect(outcome.settledPerWorker.reduce(0, +) > 0, "the others took over")
        report("3 workers, the first SIGKILLed mid-stream", outcome)
    }

    /// The first worker fails its 500th input once with a retryable error, in the middle of that notification's
    /// events: it is retried in place after the retry delay while the notification's later events wait behind it.
    @Test func aRetryableFailureMidNotificationKeepsTheOrder() async throws {
        let outcome = try await run(
            "ordered-fail", shards: Self.shards, firstWorkerEnvironment: ["RESPONDER_FAULT": "after-handler:500:FAIL"])
        expectSerialOrder(outcome)
        #expect(outcome.retriedInPlace >= 1, "the injected failure happened")
        report("3 workers, a retryable failure injected mid-stream", outcome)
    }

    /// The same stream on the unordered input queue: measured, for the report. Nothing is lost there either.
    @Test func withoutOrderedModeTheDifferenceIsMeasured() async throws {
        let outcome = try await run("unordered", shards: 0)
        #expect(outcome.deadLetters == 0)
        report("3 workers WITHOUT ordered mode (measured)", outcome)
    }
}
