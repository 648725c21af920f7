import Foundation

/// A ``StateStore`` in memory: for tests and for replay with `--state :memory:`. Nothing survives the process.
public actor InMemoryStateStore: StateStore, FleetLeases {
    public nonisolated let inboxRetention: Duration
    public nonisolated let notificationRetention: Duration
    private var notifications: [String: (record: NotificationRecord, changedAt: Date)] = [:]
    private var inbox: [InboxKey: InboxEntry] = [:]
    /// Ordered mode's members, with when each membership ends, and the shards' holders: one process, so one member.
    private var members: [String: ContinuousClock.Instant] = [:]
    private var holders: [Int: String] = [:]

    /// An empty store that remembers processed events for `inboxRetention` (default 7 days) and unchanged
    /// notifications for `notificationRetention` (default 30 days).
    public init(
        inboxRetention: Duration = StateRetention.inbox, notificationRetention: Duration = StateRetention.notifications
    ) {
        self.inboxRetention = inboxRetention
        self.notificationRetention = notificationRetention
    }

    /// Nothing here was stored before the inbox knew sources, so an entry matches by its source and id alone.
    public func load(_ loads: [StateLoad]) -> [Result<StateSnapshot, any Error>] {
        loads.map { load in
            if let entry = inbox[InboxKey(source: load.source, eventID: load.eventID)] {
                return .success(
                    InboxMatch.snapshot(
                        requestIdentifier: load.requestIdentifier, storedRequestIdentifier: entry.requestIdentifier
                    ) { entry.outputs })
            }
            return .success(.unprocessed(notifications[load.requestIdentifier]?.record))
        }
    }

    public func commit(_ commits: [StateCommit]) -> [Result<CommitResult, any Error>] {
        var chains = CommitChains()
        return chains.write(commits) { commit in write(commit) }
    }

    /// Writes one commit of a batch, as it would be written alone.
    private func write(_ commit: StateCommit) -> CommitResult {
        let key = InboxKey(source: commit.inboxEntry.source, eventID: commit.inboxEntry.eventID)
        // Each key is hashed once for its lookup and its write: the entry goes in first, and back out in the rare
        // cases that write nothing.
        if let entry = inbox.updateValue(commit.inboxEntry, forKey: key) {
            inbox[key] = entry
            return InboxMatch.commitResult(
                requestIdentifier: commit.inboxEntry.requestIdentifier, storedRequestIdentifier: entry.requestIdentifier
            ) { entry.outputs }
        }
        if var record = commit.notification {
            let stored = notifications.index(forKey: record.requestIdentifier)
            guard (stored.map { notifications.values[$0].record.version } ?? 0) == record.version else {
                inbox[key] = nil
                return .versionConflict
            }
            record.version += 1
            let written = (record: record, changedAt: commit.inboxEntry.processedAt)
            if let stored { notifications.values[stored] = written } else { notifications[record.requestIdentifier] = written }
        }
        return .committed
    }

    public func notification(_ requestIdentifier: String) -> NotificationRecord? {
        notifications[requestIdentifier]?.record
    }

    public func inboxEntries(of requestIdentifier: String, limit: Int) -> [InboxEntry] {
        Array(
            inbox.values.filter { $0.requestIdentifier == requestIdentifier }
                .sorted { $0.processedAt > $1.processedAt }.prefix(limit))
    }

    /// Memory is always there: returns at once.
    public func checkAvailability() {}

    public func pruneInbox(processedBefore cutoff: Date) -> Int {
        let expired = inbox.filter { $0.value.processedAt < cutoff }.map(\.key)
        for key in expired { inbox[key] = nil }
        return expired.count
    }

    public func pruneNotifications(changedBefore cutoff: Date) -> Int {
        let expired = notifications.filter { $0.value.changedAt < cutoff }.map(\.key)
        for requestIdentifier in expired { notifications[requestIdentifier] = nil }
        return expired.count
    }

    public func renewMembership(of member: String, for timeout: Duration) -> ShardLeases {
        members[member] = .now + timeout
        return shardLeases()
    }

    public func claimShard(_ shard: Int, for member: String) -> Bool {
        guard shardLeases().isFree(shard, for: member) else { return false }
        holders[shard] = member
        return true
    }

    public func releaseShards(_ shards: [Int], of member: String) {
        for shard in shards where holders[shard] == member { holders[shard] = nil }
    }

    public func leaveFleet(_ member: String) {
        members[member] = nil
        holders = holders.filter { $0.value != member }
    }

    public func shardLeases() -> ShardLeases {
        let now = ContinuousClock.now
        let live = Set(members.filter { $0.value > now }.keys)
        return ShardLeases(members: live.sorted(), holders: holders.filter { live.contains($0.value) })
    }
}
