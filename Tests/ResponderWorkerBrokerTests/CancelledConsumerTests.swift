import AMQP
import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// The broker cancels the worker's consumer again and again before any input arrives (here: its input queue is
/// deleted each time the worker has declared it and started consuming): the worker reconnects each time, backing
/// off further each time instead of looping.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct CancelledConsumerTests {
    @Test func aConsumerCancelledAgainAndAgainBacksOffFurtherEachTime() async throws {
        let topology = TestTopology("cancelled-again")
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let worker = try WorkerProcess(topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path)
        let connection = try await TestBroker.connect()
        let channel = try await connection.openChannel()
        let inputQueue = topology.topology.inputQueue
        let cancelled = "the broker cancelled the consumer; reconnecting"

        for round in 1...3 {
            try await waitFor("the worker consuming (round \(round))") {
                let line = try await TestBroker.ctl("list_queues", "name", "consumers", "--no-table-headers", "--quiet")
                return line.split(separator: "\n").contains { $0.split(separator: "\t") == [Substring(inputQueue), "1"] }
            }
            _ = try await channel.deleteQueue(inputQueue)
            // The log line, not the counter: the worker counts the reconnection before it logs it.
            try await worker.waitForLog(cancelled, count: round)
        }
        // Each cancelled session counted as a failed attempt: the third waited up to 800 ms, not the first's 200.
        let attempts = worker.logLines(containing: cancelled)
        #expect(attempts.count == 3)
        #expect(attempts.last?.contains("attempt=3") == true, "\(attempts)")
        #expect(try await worker.metric("responder_reconnects_total") == 3, "\(worker.logText.suffix(3000))")

        // With an input, the session proves itself and the worker goes on as usual.
        try await worker.waitUntilReady()
        let stream = try await PacedStream.start(topology)
        try await stream.finishPublishing()
        let updates = try await probe.collectUpdates(stream.check.expectedMessageIDs)
        #expect(stream.check.problems(updates) == [])

        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        await connection.close()
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }
}
