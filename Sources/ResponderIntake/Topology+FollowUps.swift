import Responder

extension TopologyDeclarations {
    /// The plan with the follow-ups' delay queues of `ladder` added: per step a fanout exchange and a queue of the
    /// output queue type bound to it, holding each message for the step's delay, then dead-lettering it to the input
    /// exchange under the routing key it was published with (the notification's request identifier), so in ordered
    /// mode it comes back on its notification's shard, and in either mode through the exchange a producer uses.
    func adding(_ ladder: FollowUpLadder, topology: Topology) -> Self {
        var plan = self
        for step in ladder.steps {
            plan.exchanges.append(ExchangeDeclaration(name: step.exchange, type: "fanout"))
            plan.queues.append(
                QueueDeclaration(
                    name: step.exchange,
                    arguments: topology.typeArguments.merging(topology.retryDeadLettering) { $1 }.merging([
                        "x-message-ttl": .integer(Int64(step.milliseconds)),
                        "x-dead-letter-exchange": .string(topology.inputExchange),
                    ]) { $1 }))
            // A fanout exchange ignores the key; `#` says so as the other bindings do.
            plan.bindings.append(BindingDeclaration(queue: step.exchange, exchange: step.exchange, routingKey: "#"))
        }
        return plan
    }
}
