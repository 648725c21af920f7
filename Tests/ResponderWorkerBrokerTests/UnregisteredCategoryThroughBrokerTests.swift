import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// A producer's category typo reaches an operator: a worker counts responses of an unregistered category on
/// /metrics, by category, and logs a warning naming it, never the response's text; the response itself still gets
/// no update, as on iOS.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct UnregisteredCategoryThroughBrokerTests {
    @Test func aMisspeltCategoryIsCountedOnMetricsAndWarnedAbout() async throws {
        let topology = TestTopology("unregistered-category")
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder("unregistered-category")
        defer { try? FileManager.default.removeItem(at: folder) }
        let worker = try WorkerProcess(topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path)
        try await worker.waitUntilReady()

        // RedGreen registers "red-category".
        let typo = "Red-category"
        let lines = (1...2).map { index in
            RedGreenTaps.line(
                RedGreenTaps.event(id: "typo-\(index)", request: "typo-\(index)", category: typo, userText: "secret reply"),
                exchange: topology.topology.inputExchange)
        }
        try await probe.publish(lines)
        let metric = "responder_unregistered_category_responses_total{category=\"\(typo)\"}"
        try await waitFor("both responses counted under their category") { try await worker.metric(metric) == 2 }
        try await waitFor("both inputs settled") { try await worker.metric("responder_events_total") == 2 }
        try await worker.waitForLog("category is not registered")

        #expect(try await probe.count(topology.topology.outputQueue) == 0, "no update, as on iOS")
        let warnings = worker.logLines(containing: "category is not registered")
        #expect(warnings.count == 1, "one warning per category per minute: \(warnings)")
        #expect(warnings.first?.contains(typo) == true)
        #expect(!worker.logText.contains("secret reply"), "userText is never logged")
        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        await probe.cleanUp()
    }
}
