import AMQP
import BrokerHarness
import Foundation
import WorkerHarness

/// The RabbitMQ cluster `BROKER_NODES=3 scripts/broker start` runs for the fleet test, found through
/// `AMQP_CLUSTER_URLS` (its nodes' AMQP URLs, node 1 first, separated by spaces), which scripts/test sets.
struct BrokerCluster: Sendable {
    /// Node i of the cluster is `nodes[i - 1]`; each is also a ``BrokerNode`` of its own (rabbitmqctl, queue counts).
    let nodes: [BrokerNode]

    /// The cluster's URLs; nil when the tests run without one.
    static let urls = ProcessInfo.processInfo.environment["AMQP_CLUSTER_URLS"].map {
        $0.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// Whether a cluster of at least three nodes is there.
    static var isAvailable: Bool { (urls?.count ?? 0) >= 3 }

    /// The cluster of `AMQP_CLUSTER_URLS`.
    static func fromEnvironment() throws -> BrokerCluster {
        BrokerCluster(nodes: try (urls ?? []).map { BrokerNode(port: try AMQPConfiguration(url: $0).port, url: $0) })
    }

    /// Stops node `number`'s RabbitMQ application: its connections drop and its queue members stop, as when the
    /// node is lost.
    func stopNode(_ number: Int) async throws {
        try await script("stop-node", "\(number)")
    }

    /// Starts node `number`'s application again and waits until it runs.
    func startNode(_ number: Int) async throws {
        try await script("start-node", "\(number)")
    }

    /// The number of the node whose member leads quorum queue `queue`.
    func leader(of queue: String) async throws -> Int {
        let output = try await script("leader", queue)
        guard let number = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("scripts/broker leader \(queue) said: \(output)")
        }
        return number
    }

    /// The members of quorum queue `queue` (node names) and their Raft states, asked of node `number`.
    func members(of queue: String, askingNode number: Int) async throws -> [String: String] {
        let output = try await script("queues", "quorum_status", queue, "--formatter", "json", node: number)
        guard let rows = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] else {
            throw HarnessError("quorum_status \(queue): \(output)")
        }
        var members: [String: String] = [:]
        for row in rows {
            if let name = row["Node Name"] as? String, let state = row["Raft State"] as? String { members[name] = state }
        }
        return members
    }

    @discardableResult
    private func script(_ arguments: String..., node: Int = 1) async throws -> String {
        let result = try await ChildProcess.run(
            Paths.root.appendingPathComponent("scripts/broker"), arguments: arguments,
            environment: ["BROKER_NODES": "\(nodes.count)", "BROKER_PORT": "\(nodes[0].port)", "BROKER_NODE": "\(node)"])
        guard result.status == 0 else {
            throw HarnessError("scripts/broker \(arguments.joined(separator: " ")) exited \(result.status): \(result.output)")
        }
        return result.output
    }
}
