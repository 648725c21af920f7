import AMQP
import Foundation
import Testing
import WorkerHarness

/// SIGTERM in the middle of a stream: the worker finishes what it holds, acknowledges it and exits 0; a second
/// worker on the same state finishes the rest, and every owed update arrives exactly once.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(4)))
struct GracefulShutdownTests {
    @Test func sigtermFinishesWhatIsInHandAndLosesNothing() async throws {
        let stream = try await StreamInProgress.start("sigterm")
        let first = stream.worker
        first.send(SIGTERM)
        #expect(try await first.waitForExit() == 0)
        #expect(first.logText.contains("stopped"), "a graceful stop, not a crash")

        let queues = try await TestBroker.ctl("list_queues", "--no-table-headers", "name", "messages_unacknowledged")
        let input = queues.split(separator: "\n").first { $0.hasPrefix(stream.topology.topology.inputQueue + "\t") }
        #expect(input?.split(separator: "\t").last == "0", "nothing left unacknowledged: \(input ?? "no input queue")")
        #expect(try await stream.inputsLeft() > 0, "the worker stopped mid-stream")

        let second = try await stream.secondWorker()
        var updates = try await stream.probe.collectUpdates(stream.check.expectedMessageIDs)
        // An input the first worker handled but did not acknowledge would come back to the second as a duplicate.
        let metrics = try await second.metrics().split(separator: "\n")
        let deduplicated = metrics.first { $0.hasPrefix(#"responder_events_total{outcome="deduplicated"} "#) }
        #expect(deduplicated == nil || deduplicated?.hasSuffix(" 0") == true, "\(deduplicated ?? "")")
        second.send(SIGTERM)
        #expect(try await second.waitForExit() == 0)

        updates += try await stream.probe.take(0, from: stream.topology.topology.outputQueue, timeout: .zero)
        #expect(stream.check.problems(updates) == [])
        #expect(updates.count == stream.check.expectedMessageIDs.count, "each update exactly once: nothing was redelivered")
        let left = try await stream.finish()
        #expect(left.inputsLeft == 0 && left.deadLetters == 0)
    }
}
