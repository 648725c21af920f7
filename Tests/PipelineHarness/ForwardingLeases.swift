import Responder

/// A test double of a state store whose fleet leases (ordered mode's shards) are another store's, ``leaseStore``:
/// the doubles change what the pipeline's operations do, never the fleet's.
public protocol ForwardingLeases: StateStore {
    var leaseStore: any StateStore { get }
}

extension ForwardingLeases {
    public func renewMembership(of member: String, for timeout: Duration) async throws -> ShardLeases {
        try await leaseStore.renewMembership(of: member, for: timeout)
    }

    public func claimShard(_ shard: Int, for member: String) async throws -> Bool {
        try await leaseStore.claimShard(shard, for: member)
    }

    public func releaseShards(_ shards: [Int], of member: String) async throws {
        try await leaseStore.releaseShards(shards, of: member)
    }

    public func leaveFleet(_ member: String) async throws { try await leaseStore.leaveFleet(member) }

    public func shardLeases() async throws -> ShardLeases { try await leaseStore.shardLeases() }
}
