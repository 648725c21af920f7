/// Which live member of an ordered fleet each shard belongs to: every worker computes it alike from the same
/// members (`ShardLeases.members`), so they agree without talking to each other.
///
/// Each member gets S/N shards, give or take one (the first S mod N members by name get one more), and each shard
/// goes to the member that prefers it most among those with room left, in shard order. The preference is rendezvous
/// hashing (highest random weight) of the member's name and the shard: a member joining or leaving moves few shards
/// besides its own, so few shards pause while they change hands.
public enum ShardAssignment {
    /// The member each of `shards` shards goes to, by shard index; nobody when there are no members.
    public static func assign(shards: Int, members: [String]) -> [Int: String] {
        let members = members.sorted()
        guard !members.isEmpty else { return [:] }
        var room = members.indices.map { shards / members.count + ($0 < shards % members.count ? 1 : 0) }
        var assignment: [Int: String] = [:]
        for shard in 0..<shards {
            guard let index = preference(shard: shard, members: members).lazy.compactMap({ members.firstIndex(of: $0) })
                .first(where: { room[$0] > 0 })
            else { continue }
            room[index] -= 1
            assignment[shard] = members[index]
        }
        return assignment
    }

    /// `members` ranked by how much they prefer `shard`, first to last: the standbys of a shard, in the order they
    /// are asked to take it.
    public static func preference(shard: Int, members: [String]) -> [String] {
        members.map { (member: $0, weight: weight(member: $0, shard: shard)) }
            .sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.member < $1.member }
            .map(\.member)
    }

    /// FNV-1a over the member's name and the shard, then SplitMix64's finaliser to spread the bits: the same on
    /// every machine and build, unlike Swift's seeded `Hasher`.
    private static func weight(member: String, shard: Int) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array(member.utf8) + [0] + Array(String(shard).utf8) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        return hash ^ (hash >> 31)
    }
}
