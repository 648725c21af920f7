import Logging
import Responder
import Synchronization

/// Ordered mode's share of the shards for one worker: which shard queues it consumes, kept in the state store
/// (``StateStore/renewMembership(of:for:)``) so that a fleet spreads its shards (``ShardAssignment``), whatever the
/// order its workers started in, and hands them over when a worker joins, leaves or dies.
///
/// Every heartbeat (``ShardLease``) it renews the worker's membership and compares the shards the worker holds with
/// its share of the live members. When they differ (a shard it holds is another member's share now, or a shard of
/// its share is free), it tells the broker session, which cancels its consumers, lets everything it received settle
/// (acked, or dead-lettered, or back to its queue) and then asks ``rebalance()`` which shards to consume: that gives
/// back the leases of the shards that are no longer its own, nothing of them in hand any more, and claims the free
/// ones of its share. A shard so changes hands only after its previous holder settled all it took from it, and a
/// member that died holds nothing once its membership has expired (its unacknowledged inputs went back to the
/// queue with its connection). The queues' single active consumer stays on as the second fence: a holder that
/// lost touch with the store (and so its lease) but not with the broker stays the active consumer, and the
/// shard's new holder waits as a standby until it is gone; the notification's version in the store is the last.
final class ShardOwnership: Sendable {
    private struct State {
        /// The shards whose leases this worker holds, so may consume.
        var held: Set<Int> = []
        /// The fleet as last seen.
        var leases: ShardLeases?
        /// Told when the shards held should change: the session cancels its consumers.
        var onChange: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())
    private let store: any StateStore
    private let shards: Int
    private let member: String
    private let lease: ShardLease
    private let metrics: WorkerMetrics
    private let logger: Logger

    init(store: any StateStore, shards: Int, member: String, lease: ShardLease, metrics: WorkerMetrics, logger: Logger) {
        self.store = store
        self.shards = shards
        self.member = member
        self.lease = lease
        self.metrics = metrics
        self.logger = logger
        for shard in 0..<shards { metrics.shardActive(shard, false) }
    }

    /// Renews the membership every heartbeat until the task is cancelled, and tells the session when the shards it
    /// holds should change.
    func maintain() async {
        var failing = false
        while !Task.isCancelled {
            do {
                try await renew()
                failing = false
            } catch {
                // The store's outage pauses the worker anyway; the queues' single active consumer fences the shards
                // meanwhile.
                if !failing { logger.warning("cannot renew the worker's membership of the fleet", metadata: ["error": "\(error)"]) }
                failing = true
            }
            try? await Task.sleep(for: lease.heartbeat)
        }
    }

    /// One heartbeat: renews the membership, looks at the fleet, and tells the session if the shards it holds
    /// should change.
    func renew() async throws {
        let leases = try await store.renewMembership(of: member, for: lease.timeout)
        let changed = state.withLock { state in
            state.leases = leases
            return needsChange(state) ? state.onChange : nil
        }
        changed?()
    }

    /// Whether the shards held should change, as last seen: one held is not the worker's any more (another member's
    /// share, or another member took its lease), or one of its share is free to take.
    var needsChange: Bool { state.withLock { needsChange($0) } }

    private func needsChange(_ state: State) -> Bool {
        guard let leases = state.leases else { return false }
        let share = share(of: leases)
        return state.held.contains { !share.contains($0) || leases.holders[$0] != member }
            || share.contains { !state.held.contains($0) && leases.isFree($0, for: member) }
    }

    /// This worker's share of the shards among `leases`' members (itself counted in, as it renews next).
    private func share(of leases: ShardLeases) -> Set<Int> {
        let members = Set(leases.members + [member]).sorted()
        return Set(ShardAssignment.assign(shards: shards, members: members).filter { $0.value == member }.keys)
    }

    /// `onChange` is called (on a heartbeat) while the shards held should change; nil stops it. Called at once if
    /// they should change already.
    func observe(_ onChange: (@Sendable () -> Void)?) {
        let now = state.withLock { state in
            state.onChange = onChange
            return needsChange(state)
        }
        if now { onChange?() }
    }

    /// Returns once the shards held should change or `stopped()` says so, looking a few times a second: for a
    /// worker that holds no shard, so consumes nothing, until a heartbeat says otherwise.
    func waitForChange(unless stopped: () -> Bool) async throws {
        while !needsChange, !stopped() { try await Task.sleep(for: .milliseconds(200)) }
    }

    /// Between two rounds of consuming, with nothing of any shard in hand: gives back the leases of the shards that
    /// are no longer this worker's, claims the free ones of its share, and returns the shards it holds, to consume.
    /// When the store cannot answer, the shards held stay as they are.
    func rebalance() async -> Set<Int> {
        let before = state.withLock { $0.held }
        var held = before
        do {
            var leases = try await store.renewMembership(of: member, for: lease.timeout)
            let share = share(of: leases)
            let giving = held.filter { !share.contains($0) || leases.holders[$0] != member }
            if !giving.isEmpty {
                try await store.releaseShards(giving.sorted(), of: member)
                held.subtract(giving)
                for shard in giving where leases.holders[shard] == member { leases.holders[shard] = nil }
            }
            for shard in share.sorted() where !held.contains(shard) && leases.isFree(shard, for: member) {
                guard try await store.claimShard(shard, for: member) else { continue }
                held.insert(shard)
                leases.holders[shard] = member
            }
            state.withLock { state in
                state.held = held
                state.leases = leases
            }
        } catch {
            logger.warning("cannot rebalance the shards; keeping those held", metadata: ["error": "\(error)"])
            held = before
        }
        if held != before {
            for shard in 0..<shards { metrics.shardActive(shard, held.contains(shard)) }
            logger.info("shards held", metadata: ["shards": "\(held.sorted())", "worker-id": "\(member)"])
        }
        return held
    }

    /// Leaves the fleet (a graceful stop, with nothing in hand): the others take this worker's shards at their next
    /// heartbeat instead of after its membership expires.
    func leave() async {
        state.withLock { $0.held = [] }
        for shard in 0..<shards { metrics.shardActive(shard, false) }
        do {
            try await store.leaveFleet(member)
        } catch {
            logger.warning("cannot leave the fleet; the shards are free once the membership expires", metadata: ["error": "\(error)"])
        }
    }
}
