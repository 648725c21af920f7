import BrokerHarness
import Foundation
import Logging
import Responder
import Synchronization
import Testing

@testable import ResponderWorker

/// Ordered mode's hand-over through the store (``ShardOwnership``), two workers on one store: the first takes every
/// shard; the second, joining, takes nothing the first still holds; the first, told by its heartbeat, gives back
/// the second's share when it rebalances (after its consumers settled) and the second takes it then; the first
/// leaving gives the second every shard, and a member that stops renewing loses its shards once its membership
/// expires. A holder whose lease was taken, or whose membership would expire while it hands shards over, is told to
/// fence (give back what it holds unsettled) rather than to cancel its consumers.
@Suite(.timeLimit(.minutes(10)))
struct ShardOwnershipTests {
    private func ownership(
        _ member: String, on store: any FleetLeases, heartbeat: Duration = .seconds(1), timeout: Duration = .seconds(600)
    ) -> ShardOwnership {
        ShardOwnership(
            store: store, shards: 6, member: member, lease: ShardLease(heartbeat: heartbeat, timeout: timeout),
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
        #expect(await second.rebalance() == [], "every shard is held")
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
        #expect(await survivor.rebalance() == [])
        try await waitFor("w1's membership to expire") { try await heartbeat(survivor) }
        #expect(await survivor.rebalance() == Set(0..<6))
    }

    @Test func aHolderWhoseLeaseWasTakenFencesInsteadOfCancelling() async throws {
        let store = InMemoryStateStore()
        let stale = ownership("w1", on: store, timeout: .seconds(1))
        #expect(await stale.rebalance() == Set(0..<6))
        let calls = Calls()
        stale.observe(change: { calls.record("change") }, fence: { calls.record("fence") })
        try await waitFor("w1's membership to expire") {
            await !store.shardLeases().members.contains("w1")
        }
        #expect(await ownership("w2", on: store).rebalance() == Set(0..<6), "w1 is not a member any more")
        try await stale.renew()
        #expect(calls.all == ["fence"], "another holder may be the standby now: cancelling would let it go first")
    }

    @Test func aHandOverWhoseRenewalsFailFencesBeforeTheMembershipExpires() async throws {
        let store = RenewalSwitch()
        let heartbeat = Duration.milliseconds(500)
        let timeout = Duration.seconds(2)
        let holder = ownership("w1", on: store, heartbeat: heartbeat, timeout: timeout)
        #expect(await holder.rebalance() == Set(0..<6))
        _ = try await store.renewMembership(of: "w2", for: .seconds(600))
        let calls = Calls()
        holder.observe(change: { calls.record("change") }, fence: { calls.record("fence") })
        let beforeRenewal = ContinuousClock.now
        try await holder.renew()
        let afterRenewal = ContinuousClock.now
        #expect(calls.all == ["change"], "w2 joined: the holder hands its share over")
        await store.failRenewals()

        // The boundary, at chosen instants: the renewal was sent between the two readings of the clock.
        holder.fenceIfExpiring(at: beforeRenewal + timeout - heartbeat - .milliseconds(1))
        #expect(calls.all == ["change"], "more than a heartbeat of the membership is left: no fence yet")
        holder.fenceIfExpiring(at: afterRenewal + timeout - heartbeat)
        #expect(calls.all == ["change", "fence"], "one heartbeat left, before the membership expires: fenced")
        holder.fenceIfExpiring(at: afterRenewal + timeout)
        #expect(calls.all == ["change", "fence"], "fenced once")
    }

    /// The heartbeats look at the boundary by themselves: a hand-over whose renewals fail is fenced without a call.
    @Test func theHeartbeatsFenceAHandOverWhoseRenewalsFail() async throws {
        let store = RenewalSwitch()
        let holder = ownership("w1", on: store, heartbeat: .milliseconds(500), timeout: .seconds(2))
        #expect(await holder.rebalance() == Set(0..<6))
        _ = try await store.renewMembership(of: "w2", for: .seconds(600))
        let calls = Calls()
        holder.observe(change: { calls.record("change") }, fence: { calls.record("fence") })
        try await holder.renew()
        await store.failRenewals()
        let heartbeats = Task { await holder.maintain() }
        try await waitFor("the fence") { calls.all.contains("fence") }
        heartbeats.cancel()
        await heartbeats.value
        #expect(calls.all == ["change", "fence"])
    }

    /// A heartbeat whose reply comes back after a rebalance read the fleet before it: the shards the rebalance
    /// claimed look free in it. It renews the membership and changes nothing else: no fence, no hand-over.
    @Test func aHeartbeatsReplyAfterARebalanceChangesNothing() async throws {
        let store = RenewalSwitch()
        let holder = ownership("w1", on: store)
        _ = try await store.renewMembership(of: "w2", for: .seconds(600))
        let share = Set(ShardAssignment.assign(shards: 6, members: ["w1", "w2"]).filter { $0.value == "w1" }.keys)
        #expect(await holder.rebalance() == share)
        let calls = Calls()
        holder.observe(change: { calls.record("change") }, fence: { calls.record("fence") })
        await store.leaveFleet("w2")
        try await holder.renew()
        #expect(calls.all == ["change"], "w2 left: its shards are w1's to take")

        // The next heartbeat's renewal is answered before the rebalance, its reply taken after it.
        await store.holdNextReply()
        let late = Task { try await holder.renew() }
        try await waitFor("the renewal to be answered and held") { await store.holdsAReply }
        holder.observe(change: nil, fence: nil)
        #expect(await holder.rebalance() == Set(0..<6))
        holder.observe(change: { calls.record("change") }, fence: { calls.record("fence") })
        await store.releaseReply()
        try await late.value
        #expect(calls.all == ["change"], "the late reply shows w2's old shards free, not taken by another")
        #expect(!holder.needsChange)

        try await holder.renew()
        #expect(calls.all == ["change"])
    }

    /// What the session was told, in order.
    private final class Calls: Sendable {
        private let calls = Mutex<[String]>([])
        func record(_ call: String) { calls.withLock { $0.append(call) } }
        var all: [String] { calls.withLock { $0 } }
    }

    /// An in-memory store whose renewals fail once told to (a store out of reach of this worker), or whose next
    /// renewal is answered at once and its reply held back until released (a slow network).
    private actor RenewalSwitch: StateStore, FleetLeases {
        nonisolated let inboxRetention = Duration.seconds(3_600)
        nonisolated let notificationRetention = Duration.seconds(3_600)
        private let memory = InMemoryStateStore()
        private var failing = false
        private var holdsNextReply = false
        private var heldReply: CheckedContinuation<Void, Never>?

        func failRenewals() { failing = true }
        func holdNextReply() { holdsNextReply = true }
        var holdsAReply: Bool { heldReply != nil }
        func releaseReply() {
            heldReply?.resume()
            heldReply = nil
        }

        func renewMembership(of member: String, for timeout: Duration) async throws -> ShardLeases {
            if failing { throw StateStoreUnavailable(reason: "out of reach") }
            let leases = await memory.renewMembership(of: member, for: timeout)
            if holdsNextReply {
                holdsNextReply = false
                await withCheckedContinuation { heldReply = $0 }
            }
            return leases
        }
        func claimShard(_ shard: Int, for member: String) async -> Bool { await memory.claimShard(shard, for: member) }
        func releaseShards(_ shards: [Int], of member: String) async { await memory.releaseShards(shards, of: member) }
        func leaveFleet(_ member: String) async { await memory.leaveFleet(member) }
        func shardLeases() async -> ShardLeases { await memory.shardLeases() }
        func load(_ loads: [StateLoad]) async -> [Result<StateSnapshot, any Error>] { await memory.load(loads) }
        func commit(_ commits: [StateCommit]) async -> [Result<CommitResult, any Error>] { await memory.commit(commits) }
        func notification(_ requestIdentifier: String) async -> NotificationRecord? {
            await memory.notification(requestIdentifier)
        }
        func inboxEntries(of requestIdentifier: String, limit: Int) async -> [InboxEntry] {
            await memory.inboxEntries(of: requestIdentifier, limit: limit)
        }
        func pruneInbox(processedBefore cutoff: Date) async -> Int { 0 }
        func pruneNotifications(changedBefore cutoff: Date) async -> Int { 0 }
        func checkAvailability() {}
    }
}
