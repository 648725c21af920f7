import BrokerHarness
import Foundation
import Responder
import ResponderSQLite
import Testing
import WorkerHarness

/// `responder shards`: for each shard of an ordered fleet, the worker holding it and its standbys, from the leases in
/// the state store the fleet shares; reading only.
@Suite(.timeLimit(.minutes(10)))
struct ShardsCommandTests {
    @Test func printsEachShardsActiveWorkerAndItsStandbys() async throws {
        let folder = try Paths.temporaryFolder("shards")
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state.sqlite").path
        let store = try SQLiteStateStore(path: state)
        for member in ["w1", "w2", "w3"] { _ = try await store.renewMembership(of: member, for: .seconds(600)) }
        #expect(try await store.claimShard(0, for: "w2"))
        #expect(try await store.claimShard(2, for: "w3"))
        try store.close()

        let result = try await Tool.run(["shards", "--shards", "3", "--input-queue", "work", "--state", state])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "3 live workers: w1 w2 w3")
        #expect(lines.count == 4)
        for (shard, holder) in [(0, "w2"), (1, "none"), (2, "w3")] {
            let line = try #require(lines.first { $0.hasPrefix("work.shard.\(shard)  ") })
            #expect(line.contains("  active \(holder)  standbys "), "\(line)")
            let standbys = line.components(separatedBy: "  standbys ").last?.split(separator: " ").map(String.init)
            #expect(standbys?.sorted() == ["w1", "w2", "w3"].filter { $0 != holder }, "\(line)")
        }
    }

    @Test func withoutTheShardCountItRefuses() async throws {
        let result = try await Tool.run(["shards", "--state", "/nowhere/state.sqlite"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--shards"), "\(result.stderr)")
    }
}
