import Logging
import Responder
import Testing

@testable import ResponderWorker

/// Ordered mode's hand-over through the store (``ShardOwnership``), two workers on one store: the first takes every
/// shard; the second, joining, takes nothing the first still holds; the first, told by its heartbeat, gives back
/// the second's share when it rebalances (after its consumers settled) and the second takes it then; the first
/// leaving gives the second every shard, and a member that stops renewing loses its shards once its membership
/// expires.
@Suite(.timeLimit(.minutes(1)))
struct ShardOwnershipTests {
    private func ownership(_ member: String, on store: any StateStore, timeout: Duration = .seconds(600)) -> ShardOwnership {
        ShardOwnership(
            store: store, shards: 6, member: member, lease: ShardLease(heartbeat: .seconds(1), timeout: timeout),
            metrics: WorkerMetrics(), logger: Logger(label: "test"))
    }

    /// Runs one heartbeat of `ownership`, then returns whether it says its shards should change.
    private func heartbeat(_ ownership: ShardOwnership) async throws -> Bool {
        try await ownership.renew()
        return ownership.needsChange
    }

    @Test func aJoiningWorkerTakesItsShareOnlyOnceTheHolderGaveItBack() async throws {
        let store = InMemoryStateStore()
        let first = ownership("w1", on: store)
        #expect(await first.rebalance() == Set(0..<6), "alone, it holds every shard")
        let second = ownership("w2", on: store)
        #expect(await second.rebalance().isEmpty, "every shard is held")
        let share = Set(ShardAssignment.assign(shards: 6, members: ["w1", "w2"]).filter { $0.value == "w2" }.keys)
        #expect(share.count == 3)
        #expect(!(try await heartbeat(second)), "nothing of its share is free yet")
        #expect(try await heartbeat(first), "the first sees the second and must give back its share")
        #expect(await first.rebalance() == Set(0..<6).subtracting(share))
        #expect(try await heartbeat(second))
        #expect(await second.rebalance() == share)
        #expect(!(try await heartbeat(first)))
        #expect(!(try await heartbeat(second)))

        await first.leave()
        #expect(try await heartbeat(second), "the first left")
        #expect(await second.rebalance() == Set(0..<6))
    }

    @Test func aWorkerThatStopsRenewingLosesItsShardsWhenItsMembershipExpires() async throws {
        let store = InMemoryStateStore()
        let dead = ownership("w1", on: store, timeout: .seconds(1))
        _ = await dead.rebalance()
        let survivor = ownership("w2", on: store)
        #expect(await survivor.rebalance().isEmpty)
        try await waitFor(timeout: .seconds(30), "w1's membership to expire") { try await heartbeat(survivor) }
        #expect(await survivor.rebalance() == Set(0..<6))
    }

    /// Polls `condition` every 100 ms until it holds; fails after `timeout`.
    private func waitFor(timeout: Duration, _ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while try await !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out waiting for \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
