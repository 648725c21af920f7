import BrokerHarness
import Foundation
import NotificationEvents
import Testing
import WorkerHarness

/// The lifecycle session (replacements, removals, a redelivered removal, stale responses) through the real broker,
/// unordered and in ordered mode (the session routes every input by its request identifier, as ordered mode needs):
/// the worker publishes exactly the golden outputs, in each notification's order, with SQLite and with PostgreSQL.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct LifecycleThroughBrokerTests {
    /// Unordered (0 shards) and ordered (2 shards).
    static let shardCounts = [0, 2]

    @Test(arguments: shardCounts)
    func theGoldenOutputsArriveWithSQLite(shards: Int) async throws {
        let folder = try Paths.temporaryFolder()
        try await expectGoldenOutputs(state: folder.appendingPathComponent("state.sqlite").path, shards: shards)
    }

    @Test(.enabled(if: SharedDatabase.isAvailable, "needs PostgreSQL: run scripts/test"), arguments: shardCounts)
    func theGoldenOutputsArriveWithPostgreSQL(shards: Int) async throws {
        let database = try await SharedDatabase.fresh()
        defer { database.close() }
        try await expectGoldenOutputs(state: database.state, shards: shards)
    }

    private func expectGoldenOutputs(state: String, shards: Int) async throws {
        let topology = TestTopology("lifecycle", shards: shards)
        let probe = try await QueueProbe.open(topology)
        // In a folder of its own, which takes its log: a PostgreSQL state is no path to put one next to.
        let worker = try WorkerProcess(
            topology: topology, statePath: state, workingDirectory: try Paths.temporaryFolder("lifecycle"))
        defer { if worker.isRunning { worker.send(SIGKILL) } }
        try await worker.waitUntilReady()

        // The session's lines carry their request identifiers as routing keys, as ordered mode needs.
        try await probe.publish(try QueueProbe.lines(of: Paths.session("lifecycle")))
        let golden = try QueueProbe.lines(of: Paths.golden("lifecycle")).map(\.bodyBytes)
        let outputs = try await probe.takeUpdates(golden.count).map(\.body)

        // Notifications are handled side by side, so each notification's outputs are compared in order.
        func byNotification(_ bodies: [[UInt8]]) throws -> [String: [[UInt8]]] {
            try Dictionary(grouping: bodies) { try Self.subject($0) }
        }
        #expect(try byNotification(outputs) == byNotification(golden))
        #expect(try await probe.count(topology.topology.deadLetterQueue) == 0)
        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        await probe.cleanUp()
    }

    /// An event's `subject`: its notification's request identifier.
    private static func subject(_ body: [UInt8]) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        return try #require(object?["subject"] as? String)
    }
}
