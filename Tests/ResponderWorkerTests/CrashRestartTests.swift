import AMQP
import Foundation
import Testing
import WorkerHarness

/// `responder run` killed with SIGKILL in the middle of a stream (at its 20th commit) and started again on the same state file: every
/// owed update arrives (a redelivered input may publish its update again, with the same message id), and no tap is
/// lost or counted twice.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(4)))
struct CrashRestartTests {
    @Test func aKilledWorkerRestartedOnItsStateLosesAndDoublesNothing() async throws {
        let stream = try await StreamInProgress.start("crash", signal: "KILL")
        #expect(try await stream.worker.waitForExit() == SIGKILL)
        #expect(try await stream.inputsLeft() > 0, "the worker died with inputs still to handle")

        let second = try await stream.secondWorker()
        let updates = try await stream.probe.collectUpdates(stream.check.expectedMessageIDs)
        #expect(stream.check.problems(updates) == [])
        try await waitFor("the second worker to take the rest") { try await stream.inputsLeft() == 0 }
        second.send(SIGTERM)
        #expect(try await second.waitForExit() == 0)
        let late = try await stream.probe.take(0, from: stream.topology.topology.outputQueue, timeout: .zero)
        #expect(stream.check.problems(updates + late) == [])
        let left = try await stream.finish()
        #expect(left.inputsLeft == 0 && left.deadLetters == 0)
    }
}
