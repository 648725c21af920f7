import BrokerHarness
import Foundation
import Testing
import WorkerHarness

/// A worker refuses a broker whose shard layout differs from its settings, with a message that says what differs
/// and what to do, and exits instead of reconnecting: a different shard count would move notifications between
/// shards. Its settings otherwise match, so only the layout is to blame.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct ShardCountChangeTests {
    /// Runs a worker with `shards` against `topology` (already declared) and returns its exit status and log.
    private func refusal(_ topology: TestTopology, shards: Int, deliveryLimit: Int? = nil) async throws -> (Int32, String) {
        let folder = try Paths.temporaryFolder("shard-change")
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ["RESPONDER_SHARDS": String(shards)]
        if let deliveryLimit { environment["RESPONDER_DELIVERY_LIMIT"] = String(deliveryLimit) }
        let worker = try WorkerProcess(
            topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path, environment: environment)
        let status = try await worker.waitForExit()
        return (status, worker.logText)
    }

    @Test func anotherShardCountIsRefused() async throws {
        let topology = TestTopology("shard-change", shards: 4)
        let probe = try await QueueProbe.open(topology)

        let (fewer, fewerLog) = try await refusal(topology, shards: 3)
        #expect(fewer != 0)
        #expect(fewerLog.contains("the broker holds more than 3 shard queues (\(topology.topology.inputQueue).shard.3 exists)"), "\(fewerLog)")
        #expect(fewerLog.contains("drain and redeclare"))

        let (more, moreLog) = try await refusal(topology, shards: 5)
        #expect(more != 0)
        #expect(moreLog.contains("the broker holds fewer than 5 shard queues (\(topology.topology.inputQueue).shard.4 is missing)"), "\(moreLog)")

        let (unordered, unorderedLog) = try await refusal(topology, shards: 0)
        #expect(unordered != 0)
        #expect(unorderedLog.contains("the broker holds ordered shard queues"), "\(unorderedLog)")

        // Nothing was declared by the refused workers: the layout is still the fleet's.
        #expect(try await probe.count(topology.topology.shardQueue(0)) == 0)
        let extraShard = try await TestBroker.ctl("list_queues", "--no-table-headers", "name")
        #expect(!extraShard.contains("\(topology.topology.inputQueue).shard.4"))
        #expect(!extraShard.split(separator: "\n").contains(Substring(topology.topology.inputQueue)))
        await probe.cleanUp()
    }

    @Test func orderedModeOnAnUnorderedBrokerIsRefused() async throws {
        let topology = TestTopology("to-ordered")
        let probe = try await QueueProbe.open(topology)
        let (status, log) = try await refusal(topology, shards: 4)
        #expect(status != 0)
        #expect(log.contains("the unordered input queue \(topology.topology.inputQueue) exists"), "\(log)")
        await probe.cleanUp()
    }

    /// The same shard count with another queue shape (a delivery limit the shards were not declared with): the
    /// broker's 406 on the declaration becomes a refusal too, not a reconnection loop.
    @Test func anotherShapeOfTheSameShardsIsRefused() async throws {
        let topology = TestTopology("shard-shape", shards: 2)
        let probe = try await QueueProbe.open(topology)
        let (status, log) = try await refusal(topology, shards: 2, deliveryLimit: 9)
        #expect(status != 0)
        #expect(log.contains("exists on the broker with other arguments than this worker declares"), "\(log)")
        #expect(log.contains("PRECONDITION_FAILED"), "\(log)")
        await probe.cleanUp()
    }
}
