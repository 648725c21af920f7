import Responder

extension TopologyDeclarations {
    /// The plan with the exchanges and queues of the handlers' message destinations added: each exchange once,
    /// unless the plan declares it already, and each named queue bound with its destination's routing key, declared
    /// with `queueArguments` (those of the output queue). Added last: nothing of the worker's own refers to them.
    func adding(_ destinations: [MessageDestination], queueArguments: [String: ArgumentValue]) -> Self {
        var plan = self
        for destination in destinations {
            if !plan.exchanges.contains(where: { $0.name == destination.exchange }) {
                plan.exchanges.append(ExchangeDeclaration(name: destination.exchange, type: destination.exchangeType))
            }
            guard let queue = destination.queue else { continue }
            if !plan.queues.contains(where: { $0.name == queue }) {
                plan.queues.append(QueueDeclaration(name: queue, arguments: queueArguments))
            }
            plan.bindings.append(
                BindingDeclaration(queue: queue, exchange: destination.exchange, routingKey: destination.routingKey))
        }
        return plan
    }
}
