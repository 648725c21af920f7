import AMQP
import Foundation
import Testing
import WorkerHarness

/// SIGTERM in the middle of a stream (at the worker's 20th commit): the worker finishes what it holds, acknowledges it and exits 0; a second
/// worker on the same state finishes the rest, and every owed update arrives exactly once.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(4)))
struct GracefulShutdownTests {
    @Test func sigtermFinishesWhatIsInHandAndLosesNothing() async throws {
        let stream = try await StreamInProgress.start("sigterm", signal: "TERM")
        let first = stream.worker
        #expect(try await first.waitForExit() == 0)
        #expect(first.logText.contains("SIGTERM"), "the stop came at the 20th commit")
        #expect(first.logText.contains("stopped"), "a graceful stop, not a crash")

        #expect(try await stream.inputsLeft() > 0, "the worker stopped mid-stream")

        // Once a worker is gone the broker requeues whatever it left unacknowledged, so the queue's unacknowledged
        // count proves nothing now. What does: an input the first worker handled but did not acknowledge comes
        // back to the second as a duplicate, which it logs as such and which publishes its update a second time.
        let second = try await stream.secondWorker()
        var updates = try await stream.probe.collectUpdates(stream.check.expectedMessageIDs)
        try await waitFor("the second worker to take the rest") { try await stream.inputsLeft() == 0 }
        second.send(SIGTERM)
        #expect(try await second.waitForExit() == 0)
        #expect(second.logText.contains("outcome=no-update"), "the second worker handled the rest")
        #expect(!second.logText.contains("outcome=deduplicated"), "nothing handled by the first came back")

        updates += try await stream.probe.take(0, from: stream.topology.topology.outputQueue, timeout: .zero)
        #expect(stream.check.problems(updates) == [])
        #expect(updates.count == stream.check.expectedMessageIDs.count, "each update exactly once: nothing was redelivered")
        let left = try await stream.finish()
        #expect(left.inputsLeft == 0 && left.deadLetters == 0)
    }
}
