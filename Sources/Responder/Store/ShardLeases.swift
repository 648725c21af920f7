/// What the state store knows of an ordered fleet (ordered mode's shards spread over its workers): which members
/// are alive, and which live member holds each shard. Read by each worker at every heartbeat
/// (``FleetLeases/renewMembership(of:for:)``) and by `responder shards`.
public struct ShardLeases: Sendable, Hashable {
    /// The members whose membership has not expired, sorted by name.
    public var members: [String]
    /// The live member holding each shard, by shard index; a shard nobody alive holds is absent.
    public var holders: [Int: String]

    /// The fleet as a store read it: `members` alive, sorted by name, and the live `holders` by shard index.
    public init(members: [String], holders: [Int: String]) {
        self.members = members
        self.holders = holders
    }

    /// Whether `member` may take `shard` now: nobody alive holds it, or `member` does.
    public func isFree(_ shard: Int, for member: String) -> Bool {
        holders[shard].map { $0 == member } ?? true
    }
}
