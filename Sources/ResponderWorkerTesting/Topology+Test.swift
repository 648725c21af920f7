import AMQP
import ResponderIntake

extension Topology {
    /// A topology of one test's own: every name starts with `prefix`, so tests run side by side on one broker
    /// without taking each other's messages, and each retry waits one second, so a retried failure ends quickly.
    /// The broker harness's, and the package's own broker suites' (their `TestTopology`).
    package static func ofTest(_ prefix: String) -> Topology {
        var topology = Topology()
        topology.inputExchange = "\(prefix).responses"
        topology.inputQueue = "\(prefix).responder.responses"
        topology.outputExchange = "\(prefix).action-updates"
        topology.outputQueue = "\(prefix).responder.action-updates"
        topology.deadLetterExchange = "\(prefix).dead-letter"
        topology.deadLetterQueue = "\(prefix).responder.dead-letter"
        topology.retryDelays = [1, 1, 1]
        return topology
    }

    /// Deletes the exchanges and queues of this topology (equal retry delays share one queue, listed once each).
    package func delete(on channel: AMQPChannel) async {
        let plan = declarations
        for queue in Set(plan.queues.map(\.name)) { _ = try? await channel.deleteQueue(queue) }
        for exchange in Set(plan.exchanges.map(\.name)) { try? await channel.deleteExchange(exchange) }
    }
}
