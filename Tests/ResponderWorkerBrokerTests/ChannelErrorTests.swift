import AMQP
import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// The broker closes the worker's publishing channel while its connections stay up (here: an operator deleted the
/// output exchange, so the next update is refused with 404): the worker starts a new session, declares its
/// topology again, and finishes the stream with every owed update.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct ChannelErrorTests {
    @Test func theOutputExchangeDeletedMidStreamIsDeclaredAgainAndNothingIsLost() async throws {
        let topology = TestTopology("channel-error")
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let worker = try WorkerProcess(topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path)
        try await worker.waitUntilReady()
        let stream = try await PacedStream.start(topology)
        try await waitFor("the first updates") { try await probe.count(topology.topology.outputQueue) >= 3 }

        try await probe.channel.deleteExchange(topology.topology.outputExchange)
        try await stream.finishPublishing()
        let updates = try await probe.collectUpdates(stream.check.expectedMessageIDs)
        #expect(stream.check.problems(updates) == [])
        #expect(worker.logText.contains("NOT_FOUND"), "the worker did publish into the missing exchange")

        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        #expect(try await probe.count(topology.topology.inputQueue) == 0)
        #expect(try await probe.count(topology.topology.deadLetterQueue) == 0)
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }
}
