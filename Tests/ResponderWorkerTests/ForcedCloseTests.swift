import AMQP
import Foundation
import Testing
import WorkerHarness

/// The broker closes the worker's connections in the middle of a stream: the worker says it is not ready while it
/// cannot get back, reconnects with backoff, and finishes the stream with every owed update.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(4)))
struct ForcedCloseTests {
    @Test func theWorkerReconnectsAndFinishesTheStream() async throws {
        let topology = TestTopology("forced-close")
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        // A user of the test's own, whose permissions the test can take away without disturbing other tests: with
        // them gone the worker cannot reconnect, which holds the not-ready window open long enough to see.
        let user = "\(topology.prefix)-user"
        let password = "pw-\(UUID().uuidString)"
        try await TestBroker.ctl("add_user", user, password)
        try await TestBroker.ctl("set_permissions", "-p", "/", user, ".*", ".*", ".*")
        let broker = try AMQPConfiguration(url: TestBroker.url ?? "")
        let workerURL = "amqp://\(user):\(password)@\(broker.host):\(broker.port)/%2F"

        let check = StreamCheck(prefix: topology.prefix, notifications: 10, tapsEach: 40)
        let worker = try WorkerProcess(
            topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path,
            environment: ["RESPONDER_AMQP_URL": workerURL])
        let workerID = "\(topology.prefix)-\(worker.metricsPort)"
        try await worker.waitUntilReady()
        // The producer keeps publishing, a round of taps every 250 ms, through the outage and after it.
        let stream = RedGreenTaps.stream(
            prefix: check.prefix, notifications: check.notifications, tapsEach: check.tapsEach,
            exchange: topology.topology.inputExchange)
        let producer = try await QueueProbe.open(topology, name: "producer")
        let producing = Task {
            for start in stride(from: 0, to: stream.count, by: check.notifications) {
                try await producer.publish(Array(stream[start..<start + check.notifications]))
                try await Task.sleep(for: .milliseconds(250))
            }
        }
        try await waitFor("the first updates") { try await probe.count(topology.topology.outputQueue) >= 3 }

        try await TestBroker.ctl("clear_permissions", "-p", "/", user)
        let closed = try await TestBroker.forceClose(connectionsNamed: workerID)
        #expect(closed == 2, "the consuming and the publishing connection")
        try await waitFor("/health/ready to say not ready") { await worker.status(of: "/health/ready") == 503 }
        #expect(await worker.status(of: "/health/live") == 200, "alive while disconnected")
        try await waitFor(timeout: .seconds(20), "inputs to wait for the worker") { try await probe.count(topology.topology.inputQueue) > 0 }

        try await TestBroker.ctl("set_permissions", "-p", "/", user, ".*", ".*", ".*")
        try await worker.waitUntilReady()
        try await producing.value
        let updates = try await probe.collectUpdates(check.expectedMessageIDs)
        #expect(check.problems(updates) == [])
        let metrics = try await worker.metrics()
        let reconnects = metrics.split(separator: "\n").first { $0.hasPrefix("responder_reconnects_total ") }
        #expect((reconnects?.split(separator: " ").last.flatMap { Double($0) } ?? 0) >= 1, "\(reconnects ?? "no reconnect counter")")

        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        #expect(try await probe.count(topology.topology.inputQueue) == 0)
        #expect(try await probe.count(topology.topology.deadLetterQueue) == 0)
        #expect(!worker.logText.contains(password), "the password never shows in the log")
        try await TestBroker.ctl("delete_user", user)
        await producer.channel.connection.close()
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }
}
