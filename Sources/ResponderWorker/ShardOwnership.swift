import Logging
import Responder
import Synchronization

/// Ordered mode's share of the shards for one worker: which shard queues it consumes, kept in the state store
/// (``FleetLeases/renewMembership(of:for:)``) so that a fleet spreads its shards (``ShardAssignment``), whatever the
/// order its workers started in, and hands them over when a worker joins, leaves or dies.
///
/// Every heartbeat (``ShardLease``) it renews the worker's membership and compares the shards the worker holds with
/// its share of the live members. When they differ (a shard it holds is another member's share now, or a shard of
/// its share is free), it tells the broker session, which cancels its consumers, lets everything it received settle
/// (acked, or dead-lettered, or back to its queue) and then asks ``rebalance()`` which shards to consume: that gives
/// back the leases of the shards that are no longer its own, nothing of them in hand any more, and claims the free
/// ones of its share. A shard so changes hands only after its previous holder settled all it took from it, and a
/// member that died holds nothing once its membership has expired (its unacknowledged inputs went back to the
/// queue with its connection).
///
/// The queues' single active consumer stays on as the second fence: a holder that lost touch with the store (and
/// so, once its membership expired, its leases) but not with the broker stays the active consumer while it keeps
/// its consumers, and the shard's new holder waits as a standby. A cancelled consumer would let that standby go
/// first while the old holder still holds inputs, so the old holder never cancels one it may no longer hold: when
/// a heartbeat shows another member took one of its shards, or when it is handing shards over and its renewals have
/// failed for all but the last heartbeat of its membership, it closes its consuming connection instead (``fence``),
/// which gives everything it holds back to the head of its shards, in order. The notification's version in the
/// store is the last line of defence.
final class ShardOwnership: Sendable {
    private struct State {
        /// The shards whose leases this worker holds, so may consume.
        var held: Set<Int> = []
        /// The fleet as last seen.
        var leases: ShardLeases?
        /// Told when the shards held should change: the session cancels its consumers.
        var onChange: (@Sendable () -> Void)?
        /// Told when the session must give back what it holds unsettled: it closes its consuming connection.
        var onFence: (@Sendable () -> Void)?
        /// Whether the session was told to change (its consumers are cancelled and what they took is settling).
        var handingOver = false
        /// Whether the session was told to fence already.
        var fenced = false
        /// When the last renewal that the store answered was sent: the membership lasts at least the lease's
        /// timeout from then.
        var renewed: ContinuousClock.Instant?
        /// Bumped when a rebalance ends: a heartbeat's reply read the fleet as it was when its renewal was sent, and
        /// one sent before or during a rebalance may show a shard it claimed as free, or one it gave back as still
        /// its own.
        var generation: UInt64 = 0
        /// Whether a rebalance is changing the leases now: a reply that comes meanwhile is as old.
        var rebalancing = false
    }

    private let state = Mutex(State())
    private let store: any FleetLeases
    private let shards: Int
    private let member: String
    private let lease: ShardLease
    private let metrics: WorkerMetrics
    private let logger: Logger

    init(store: any FleetLeases, shards: Int, member: String, lease: ShardLease, metrics: WorkerMetrics, logger: Logger) {
        self.store = store
        self.shards = shards
        self.member = member
        self.lease = lease
        self.metrics = metrics
        self.logger = logger
        for shard in 0..<shards { metrics.shardActive(shard, false) }
    }

    /// Renews the membership every heartbeat until the task is cancelled, tells the session when the shards it
    /// holds should change, and fences the session when its leases may be taken while it hands shards over.
    func maintain() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.heartbeats() }
            group.addTask { await self.watchExpiry() }
            await group.waitForAll()
        }
    }

    private func heartbeats() async {
        var failing = false
        while !Task.isCancelled {
            do {
                try await renew()
                failing = false
            } catch {
                // The store's outage pauses the worker anyway; the queues' single active consumer keeps the shards
                // from a new holder while the consumers stay (watchExpiry() fences a hand-over in progress).
                if !failing { logger.warning("cannot renew the worker's membership of the fleet", metadata: ["error": "\(error)"]) }
                failing = true
            }
            try? await Task.sleep(for: lease.heartbeat)
        }
    }

    /// A hand-over in progress (consumers cancelled, inputs still settling) whose membership would expire before
    /// the next heartbeat could renew it: another member could take the shards and become their active consumer
    /// while this one still holds inputs of them. Looked at independently of the renewals, which may hang.
    private func watchExpiry() async {
        while !Task.isCancelled {
            fenceIfExpiring(at: .now)
            try? await Task.sleep(for: lease.heartbeat / 4)
        }
    }

    /// Fences the session when, at `now`, a hand-over is in progress and the membership has at most one heartbeat
    /// left since the last renewal the store answered. The instant is a parameter so that the boundary is tested
    /// without waiting on the clock.
    func fenceIfExpiring(at now: ContinuousClock.Instant) {
        let fence = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.handingOver, !state.fenced, let renewed = state.renewed,
                now - renewed >= lease.timeout - lease.heartbeat
            else { return nil }
            state.fenced = true
            return state.onFence
        }
        if let fence {
            logger.warning("the fleet membership is about to expire during a hand-over: giving the inputs in hand back")
            fence()
        }
    }

    /// One heartbeat: renews the membership, looks at the fleet, and tells the session if the shards it holds
    /// should change, or to fence when it no longer holds the lease of one of them (its membership had expired, and
    /// another member may be subscribed as the shard's standby). A reply that a rebalance overlapped (it began or
    /// ended between the renewal's sending and its reply) renews the membership and changes nothing else: the fleet
    /// it read is older than the shards held, and would fence or cancel for nothing.
    func renew() async throws {
        let sent = ContinuousClock.now
        let generation = state.withLock { $0.generation }
        let leases = try await store.renewMembership(of: member, for: lease.timeout)
        let (changed, fence) = state.withLock { state -> ((@Sendable () -> Void)?, (@Sendable () -> Void)?) in
            state.renewed = sent
            guard state.generation == generation, !state.rebalancing else { return (nil, nil) }
            state.leases = leases
            if state.held.contains(where: { leases.holders[$0] != member }), !state.fenced {
                state.fenced = true
                return (nil, state.onFence)
            }
            guard needsChange(state) else { return (nil, nil) }
            state.handingOver = state.onChange != nil
            return (state.onChange, nil)
        }
        if let fence {
            logger.warning("another worker took a shard this one held: giving the inputs in hand back")
            fence()
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

    /// While the session consumes: `onChange` is called (on a heartbeat) while the shards held should change, and
    /// `onFence` when the session must give back everything it holds unsettled. nil for both once it stopped
    /// consuming. `onChange` is called at once if the shards held should change already.
    func observe(change onChange: (@Sendable () -> Void)?, fence onFence: (@Sendable () -> Void)?) {
        let now = state.withLock { state in
            state.onChange = onChange
            state.onFence = onFence
            state.fenced = false
            state.handingOver = onChange != nil && needsChange(state)
            return state.handingOver
        }
        if now { onChange?() }
    }

    /// Between two rounds of consuming, with nothing of any shard in hand: the shards to consume next
    /// (``rebalance()``), once there are any; while there are none, or the store cannot answer, it waits for a
    /// change, looking a few times a second whether `stopped()`, and then returns the empty set.
    func shardsToConsume(unless stopped: () -> Bool) async throws -> Set<Int> {
        while !stopped() {
            guard let held = await rebalance() else {
                let retry = ContinuousClock.now + lease.heartbeat
                while ContinuousClock.now < retry, !stopped() { try await Task.sleep(for: .milliseconds(200)) }
                continue
            }
            if !held.isEmpty { return held }
            while !needsChange, !stopped() { try await Task.sleep(for: .milliseconds(200)) }
        }
        return []
    }

    /// With nothing of any shard in hand: gives back the leases of the shards that are no longer this worker's,
    /// claims the free ones of its share, and returns the shards it holds, to consume. nil when the store cannot
    /// answer: nothing is consumed then, since a lease that is not renewed may be taken meanwhile.
    func rebalance() async -> Set<Int>? {
        let before = state.withLock { state in
            state.rebalancing = true
            return state.held
        }
        defer {
            state.withLock { state in
                state.generation += 1
                state.rebalancing = false
            }
        }
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
            logger.warning("cannot rebalance the shards; consuming none until the store answers", metadata: ["error": "\(error)"])
            return nil
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
