import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// A healthy start logs nothing at warning level or above, unordered or ordered. The start asks the broker which
/// shard queues exist (ShardCheck's passive declarations); the queues it expects absent answer 404, which is the
/// answer it asked for, not something an operator should be warned about.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct HealthyStartLogTests {
    /// The levels an operator is alerted by, as `StreamLogHandler` writes them after the timestamp.
    static let alertingLevels: Set<Substring> = ["warning", "error", "critical"]

    /// Starts a worker on a broker without its topology yet, waits until it is ready and returns the log's lines at
    /// warning level or above.
    private func alertingLines(shards: Int) async throws -> [Substring] {
        let topology = TestTopology("healthy-start", shards: shards)
        let folder = try Paths.temporaryFolder("healthy-start")
        defer { try? FileManager.default.removeItem(at: folder) }
        let worker = try WorkerProcess(
            topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path)
        try await worker.waitUntilReady()
        let log = worker.logText
        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0, "a graceful stop exits 0")
        let probe = try await QueueProbe.open(topology)
        await probe.cleanUp()
        return log.split(separator: "\n").filter { line in
            let fields = line.split(separator: " ", maxSplits: 2)
            return fields.count > 1 && Self.alertingLevels.contains(fields[1])
        }
    }

    @Test func unorderedStartLogsNoWarning() async throws {
        let lines = try await alertingLines(shards: 0)
        #expect(lines.isEmpty, "\(lines.joined(separator: "\n"))")
    }

    @Test func orderedStartLogsNoWarning() async throws {
        let lines = try await alertingLines(shards: 2)
        #expect(lines.isEmpty, "\(lines.joined(separator: "\n"))")
    }
}
