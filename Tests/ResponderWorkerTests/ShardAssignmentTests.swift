import Testing

@testable import ResponderWorker

/// Ordered mode's spread (``ShardAssignment``): each of N members gets S/N shards give or take one, every shard one
/// member, the same whatever order the members are listed in, and a member joining takes its share mostly from
/// the others without reshuffling the rest.
struct ShardAssignmentTests {
    @Test(arguments: [(4, 1), (4, 3), (6, 3), (6, 4), (8, 3), (16, 5), (3, 5), (64, 7)])
    func eachMemberGetsItsShareGiveOrTakeOne(shards: Int, memberCount: Int) {
        let members = (1...memberCount).map { "host-\($0)-\(1000 + $0 * 37)" }
        let assignment = ShardAssignment.assign(shards: shards, members: members)
        #expect(assignment.count == shards, "every shard has a member")
        let counts = members.map { member in assignment.values.filter { $0 == member }.count }
        #expect(counts.max()! - counts.min()! <= 1, "\(counts)")
        #expect(counts.allSatisfy { $0 >= shards / memberCount && $0 <= (shards + memberCount - 1) / memberCount })
        #expect(ShardAssignment.assign(shards: shards, members: members.reversed()) == assignment)
    }

    @Test func aJoiningMemberMovesFewShardsBesidesItsOwn() {
        let members = (1...4).map { "worker-\($0)" }
        let before = ShardAssignment.assign(shards: 64, members: members)
        let after = ShardAssignment.assign(shards: 64, members: members + ["worker-5"])
        let moved = (0..<64).filter { before[$0] != after[$0] }
        let taken = moved.filter { after[$0] == "worker-5" }
        #expect(taken.count >= 12)
        // The capacities shrink from 16 to 12 or 13, so the greedy order moves a few shards between the others too.
        #expect(moved.count - taken.count <= 12, "\(moved.count) moved, \(taken.count) to the newcomer")
    }

    @Test func standbysAreTheOtherMembersInTheOrderTheyPreferTheShard() {
        let members = ["a", "b", "c"]
        for shard in 0..<6 {
            let preference = ShardAssignment.preference(shard: shard, members: members)
            #expect(preference.sorted() == members)
            #expect(ShardAssignment.preference(shard: shard, members: members.reversed()) == preference)
        }
        #expect(ShardAssignment.assign(shards: 6, members: []).isEmpty)
    }
}
