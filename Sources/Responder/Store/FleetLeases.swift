/// Ordered mode's fleet (its shards spread over the workers that share a store): who is alive and who holds each
/// shard, kept where all of a fleet's workers see it.
///
/// Only a store that several workers can share implements it: the SQLite file (the processes of one host, on the
/// host's clock), the PostgreSQL server (a fleet on several machines, on the server's clock), and the in-memory
/// store for the one process that holds it. A ``StateStore`` without it serves unordered mode alone; ordered mode
/// (`--shards`) refuses it.
public protocol FleetLeases: Sendable {
    /// Records that `member` is alive until `timeout` from now (by the store's clock, so the
    /// members of a fleet on several machines agree), then returns the live members and the shards they hold.
    /// Each worker calls it at every heartbeat; a member that stops calling it is dead once `timeout` has passed,
    /// and its shards are free.
    func renewMembership(of member: String, for timeout: Duration) async throws -> ShardLeases

    /// Takes `shard` for `member` when nobody alive holds it (or `member` does); returns whether `member` holds it
    /// now. Two members claiming one shard at once: one wins.
    func claimShard(_ shard: Int, for member: String) async throws -> Bool

    /// Gives back the leases `member` holds on `shards`, once it has settled everything it took from them.
    func releaseShards(_ shards: [Int], of member: String) async throws

    /// Ends `member`'s membership with its leases (a graceful stop, after it settled everything it took).
    func leaveFleet(_ member: String) async throws

    /// The live members and their shards, reading only (``renewMembership(of:for:)`` without renewing).
    func shardLeases() async throws -> ShardLeases
}
