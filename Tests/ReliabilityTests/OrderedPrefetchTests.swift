import BrokerHarness
import Foundation
import NotificationEvents
import Testing
import WorkerHarness

/// Ordered mode bounds what one worker holds across all its shards by `--prefetch`: the broker makes the first
/// worker to subscribe active on every shard, so a prefetch per shard channel would let it hold shards × prefetch
/// inputs (times the largest body, its memory). Checked where it matters: during a store pause, when the inputs
/// wait in place unacknowledged and the shards deliver up to the bound and no further.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct OrderedPrefetchTests {
    static let shards = 4
    /// Not a multiple of the shards, so the remainder is spread too.
    static let prefetch = 18

    @Test func oneWorkerHoldsAtMostThePrefetchAcrossAllItsShards() async throws {
        let node = try BrokerNode.shared()
        let topology = TestTopology("ordered-prefetch", shards: Self.shards)
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder("ordered-prefetch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state.sqlite").path
        let size = try await CrowdedState.create(at: state)
        // 5 events on each of 80 notifications, routed by request identifier: every shard gets far more than the
        // whole prefetch.
        let exchange = topology.topology.inputExchange
        let lines = (1...5).flatMap { tap in
            (1...80).map { notification in
                let request = RedGreenTaps.request(topology.prefix, notification)
                let event = RedGreenTaps.event(id: RedGreenTaps.tapID(topology.prefix, notification, tap), request: request)
                return RedGreenTaps.line(
                    body: EventCodec.encode(event), messageID: event.id, routingKey: request, exchange: exchange)
            }
        }
        try await probe.publish(lines)

        // Room for the store to open and for a few inputs, no more: the state file fills at once, and the worker
        // pauses with its inputs held in place.
        let worker = try WorkerProcess(
            topology: topology, statePath: state,
            environment: ["RESPONDER_MAX_STATE_SIZE": "\(size + 16_384)", "RESPONDER_PREFETCH": "\(Self.prefetch)"])
        defer { if worker.isRunning { worker.send(SIGKILL) } }
        try await waitFor("the state file to be full and the worker to pause") {
            (try? await worker.metric("responder_store_paused")) == 1
        }

        // The broker's account of each shard consumer's prefetch: shares of the one prefetch. The consumers stay as
        // they are through the pause, but a listing on a busy broker leaves out the queues that did not answer in
        // time (seen in CI: one shard of four listed, while the worker held inputs of all four), so it is read
        // until every shard is in it.
        let shardQueues = Set((0..<Self.shards).map(topology.topology.shardQueue))
        let consumers = try await waitForValue("the broker to list a consumer on every shard") { () -> [[String]]? in
            let consumers = try await node.ctl("list_consumers", "--no-table-headers", "queue_name", "prefetch_count")
                .split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
                .filter { $0.count == 2 && shardQueues.contains($0[0]) }
            return Set(consumers.map { $0[0] }) == shardQueues ? consumers : nil
        }
        #expect(consumers.count == Self.shards, "one consumer per shard: \(consumers)")
        #expect(consumers.compactMap { Int($0[1]) }.reduce(0, +) == Self.prefetch, "\(consumers)")
        #expect(consumers.allSatisfy { (Int($0[1]) ?? 0) >= 1 }, "\(consumers)")

        // What it holds: once the broker's count of unacknowledged shard inputs agrees with the worker's own
        // (rabbitmqctl's counts of a quorum queue lag by seconds), it is the prefetch, while every shard still has
        // inputs ready for it.
        // A listing that leaves a shard out (as the consumers' may) is nil: read again.
        let shardCounts = { @Sendable () async throws -> [String: QueueCounts]? in
            let counts = try await node.queueCounts(prefix: topology.prefix).filter { shardQueues.contains($0.key) }
            return counts.count == Self.shards ? counts : nil
        }
        try await waitFor("the broker's and the worker's counts of held inputs to agree") {
            guard let held = try await shardCounts()?.values.map(\.unacknowledged).reduce(0, +) else { return false }
            let inFlight = try await worker.metric("responder_in_flight_events")
            return held >= Self.prefetch && Double(held) == inFlight
        }
        // Nothing is acknowledged during the pause: the counts stay as they were when they agreed.
        let counts = try await waitForValue("the broker to list every shard's counts") { try await shardCounts() }
        #expect(counts.values.map(\.unacknowledged).reduce(0, +) == Self.prefetch, "\(counts)")
        #expect(counts.values.allSatisfy { $0.ready > 0 }, "the shards had more to give: \(counts)")
        #expect(try await worker.metric(#"responder_events_total{outcome="handed_back"}"#) == 0)

        worker.send(SIGKILL)
        _ = try await worker.waitForExit()
        await probe.cleanUp()
    }
}
