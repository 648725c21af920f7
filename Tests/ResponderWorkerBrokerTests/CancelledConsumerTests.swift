import AMQP
import BrokerHarness
import Foundation
import RedGreenExample
import ResponderWorker
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
        let (logger, records) = CapturingLogHandler.logger()
        // A session that lasts as long as the backoff's maximum counts as healthy and starts the count again. The
        // default maximum (30 s) is shorter than a crowded test machine may take between the worker consuming and
        // the test deleting its queue; an hour is not, and the first delays are the default's (200, 400, 800 ms).
        let worker = try InProcessWorker(
            topology: topology, registry: RedGreen.makeRegistry(),
            reconnectBackoff: Backoff(initial: .milliseconds(200), maximum: .seconds(3600)), logger: logger)
        let connection = try await TestBroker.connect()
        let channel = try await connection.openChannel()
        let inputQueue = topology.topology.inputQueue
        @Sendable func cancellations() -> [CapturingLogHandler.Record] {
            records.entries.filter { $0.message == "the broker cancelled the consumer; reconnecting" }
        }
        // A reconnection right after a deletion may find the queue still being deleted and fail (the queue declared
        // while its deletion finishes is gone when the worker consumes): that failure is an attempt too.
        @Sendable func reconnections() -> [CapturingLogHandler.Record] {
            records.entries.filter {
                $0.message == "the broker cancelled the consumer; reconnecting"
                    || $0.message == "broker connection failed; reconnecting"
            }
        }

        for round in 1...3 {
            try await waitFor("the worker consuming (round \(round))") {
                let line = try await TestBroker.ctl("list_queues", "name", "consumers", "--no-table-headers", "--quiet")
                return line.split(separator: "\n").contains { $0.split(separator: "\t") == [Substring(inputQueue), "1"] }
            }
            _ = try await channel.deleteQueue(inputQueue)
            try await waitFor("reconnection \(round)") { cancellations().count >= round }
        }
        // Each cancelled session counted as a failed attempt: no reconnection started the count over, so the third
        // cancellation's wait was at least the third attempt's (up to 800 ms, not the first's 200).
        let attempts = reconnections().map { $0.metadata["attempt"]?.description }
        #expect(attempts == (1...attempts.count).map { "\($0)" }, "\(records.all)")
        #expect(cancellations().count == 3, "\(records.all)")
        #expect(reconnections().allSatisfy { $0.level == .warning })

        // With an input, the session proves itself and the worker goes on as usual.
        try await worker.waitUntilReady()
        let stream = try await PacedStream.start(topology)
        try await stream.finishPublishing()
        let updates = try await probe.collectUpdates(stream.check.expectedMessageIDs)
        #expect(stream.check.problems(updates) == [])

        try await worker.stop()
        await connection.close()
        await probe.cleanUp()
    }
}
