import ArgumentParser
import Logging
import Responder
import ResponderWorker

/// `shards`: which worker of an ordered fleet holds each shard and which would take it over, read from the state
/// store the fleet shares (the leases of the Ordered mode article). It reads and never writes.
struct ShardsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shards",
        abstract: "Print, for each shard of ordered mode, the worker active on it and its standbys.",
        discussion: """
            Reads the fleet's leases from the state store the workers share: for each shard queue, the live worker \
            that holds it (the only one consuming it) and the other live workers, its standbys, in the order they \
            would take it over. The store is the one --state or --state-file names, never RESPONDER_STATE or \
            RESPONDER_STATE_FILE; --shards and the queue names are the fleet's.
            """)

    @OptionGroup var names: TopologyOptions

    @OptionGroup(title: "State") var store: NamedStateOption

    func run() async throws {
        let topology = try names.topology(EnvironmentFallback())
        guard topology.isOrdered else {
            throw SettingError("--\(Settings.shards.flag) (or \(Settings.shards.variable ?? "its variable")) must give the fleet's shard count")
        }
        let leases = try await store.reading(logger: bootstrapLogging(level: .warning)) { store in
            guard let fleet = store as? any FleetLeases else { throw OrderedModeNeedsFleetLeases() }
            return try await fleet.shardLeases()
        }
        print("\(leases.members.count) live worker\(leases.members.count == 1 ? "" : "s"): \(leases.members.joined(separator: " "))")
        for shard in 0..<topology.shards {
            let holder = leases.holders[shard]
            let standbys = ShardAssignment.preference(shard: shard, members: leases.members).filter { $0 != holder }
            print(
                "\(topology.shardQueue(shard))  active \(holder ?? "none")  standbys "
                    + (standbys.isEmpty ? "none" : standbys.joined(separator: " ")))
        }
    }
}
