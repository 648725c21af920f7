import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// `responder health`, the command both container health checks run: exit 0 only while the worker is ready.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct HealthCommandTests {
    @Test func aReadyWorkerIsHealthy() async throws {
        let topology = TestTopology("health")
        let folder = try Paths.temporaryFolder()
        let worker = try WorkerProcess(topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path)
        try await worker.waitUntilReady()
        let result = try await Tool.run(["health", "--metrics-port", "\(worker.metricsPort)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "ready\n")
        let fromEnvironment = try await Tool.run(["health"], environment: ["RESPONDER_METRICS_PORT": "\(worker.metricsPort)"])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        let probe = try await QueueProbe.open(topology)
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func aWorkerWithoutItsBrokerIsUnhealthy() async throws {
        let folder = try Paths.temporaryFolder()
        let port = try FreePort.find()
        let nowhere = "amqp://guest:unhealthy-secret@127.0.0.1:\(port)/%2F"
        let worker = try WorkerProcess(
            topology: TestTopology("unhealthy"), statePath: folder.appendingPathComponent("state.sqlite").path,
            environment: ["RESPONDER_AMQP_URL": nowhere])
        try await waitFor("the worker's HTTP server") { await worker.status(of: "/health/live") == 200 }
        // Its log says why and where, not librabbitmq's bare "a socket error occurred", and never the password.
        try await worker.waitForLog("connection refused by 127.0.0.1:\(port)")
        #expect(!worker.logText.contains("unhealthy-secret"), "\(worker.logText)")
        let result = try await Tool.run(["health", "--metrics-port", "\(worker.metricsPort)"])
        #expect(result.status == 1)
        #expect(result.stdout == "not ready: not connected to the broker\n")
        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func nothingListeningIsUnhealthy() async throws {
        let result = try await Tool.run(["health", "--metrics-port", "\(try FreePort.find())"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("health: no answer from http://127.0.0.1:"))
    }
}
