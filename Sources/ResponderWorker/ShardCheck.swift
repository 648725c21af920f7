import AMQP
import ResponderIntake

/// Refuses a topology whose shard layout differs from the one on the broker, before anything is declared.
///
/// The consistent-hash exchange places a notification by hashing its request identifier over the shard queues
/// bound to it, so a different shard count would move notifications to other shards while their earlier events
/// still wait in the old ones, and two workers could handle one notification's events side by side. The layout on
/// the broker is read from which queues exist (passive declarations, each on a channel of its own since a missing
/// queue closes the channel): ordered mode with N shards needs shard N absent, shard N-1 present wherever shard 0
/// is, and no unordered input queue; unordered mode needs no shard 0.
///
/// Workers of a fleet start at once and declare while others check. A worker declares the shards from the last to
/// the first (see `Topology.declarations`) and never deletes one, so the check reads shard 0 first, then shard N-1,
/// then shard N: shard 0 seen means every shard above it already existed, so a missing N-1 after it is a real
/// smaller layout; shard N-1 without shard 0 is a fleet member with the same N half-way through declaring, and
/// shard N absent after N-1 was seen rules out a larger layout, whose declarer makes shard N before N-1.
struct ShardCheck {
    var topology: Topology

    /// Throws ``TopologyConflict`` when the broker's layout differs; `AMQPError` when the broker cannot be asked.
    func verify(on connection: AMQPConnection) async throws {
        let shardZero = try await exists(topology.shardQueue(0), on: connection)
        guard topology.isOrdered else {
            if shardZero {
                throw TopologyConflict(.shardLayout(
                    "the broker holds ordered shard queues (\(topology.shardQueue(0)), …) but this worker runs without "
                        + "--shards: run it with the fleet's --shards, or drain the shard queues and delete them and "
                        + "\(topology.shardExchange) first"))
            }
            return
        }
        let shards = topology.shards
        if shardZero, try await !exists(topology.shardQueue(shards - 1), on: connection) {
            throw TopologyConflict(.shardLayout(
                "the broker holds fewer than \(shards) shard queues (\(topology.shardQueue(shards - 1)) is missing): "
                    + "changing --shards would move notifications between shards; run with the fleet's --shards, or "
                    + "drain and redeclare (docs: Ordered mode, changing N)"))
        }
        if try await exists(topology.shardQueue(shards), on: connection) {
            throw TopologyConflict(.shardLayout(
                "the broker holds more than \(shards) shard queues (\(topology.shardQueue(shards)) exists): changing "
                    + "--shards would move notifications between shards; run with the fleet's --shards, or drain and "
                    + "redeclare (docs: Ordered mode, changing N)"))
        }
        if try await exists(topology.inputQueue, on: connection) {
            throw TopologyConflict(.shardLayout(
                "the unordered input queue \(topology.inputQueue) exists, and ordered mode would leave it a copy of "
                    + "every event: drain it with the unordered workers and delete it before running with --shards"))
        }
    }

    private func exists(_ queue: String, on connection: AMQPConnection) async throws(AMQPError) -> Bool {
        let channel = try await connection.openChannel()
        do throws(AMQPError) {
            _ = try await channel.declareQueue(queue, passive: true)
        } catch .channelClosed(404, _) {
            return false
        }
        await channel.close()
        return true
    }
}
