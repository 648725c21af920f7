import Responder
import Testing

@testable import ResponderIntake

/// The handlers' message destinations join the plan the worker declares at start.
@Suite struct TopologyDestinationsTests {
    @Test func aDestinationAddsItsExchangeAndItsQueueBoundWithItsRoutingKey() {
        var topology = Topology()
        topology.outputQueueType = .quorum
        topology.destinations = [
            MessageDestination(name: "replies", exchange: "chat.replies", routingKey: "reply", queue: "chat.replies"),
            MessageDestination(name: "audit", exchange: "audit", routingKey: "opened", exchangeType: "direct"),
            MessageDestination(name: "echo", exchange: "notifications.action-updates", routingKey: "echo"),
        ]
        let plan = topology.declarations
        let base = Topology().declarations
        #expect(
            plan.exchanges.dropFirst(base.exchanges.count).map { $0 }
                == [ExchangeDeclaration(name: "chat.replies", type: "topic"), ExchangeDeclaration(name: "audit", type: "direct")])
        #expect(plan.queues.last == QueueDeclaration(name: "chat.replies", arguments: ["x-queue-type": .string("quorum")]))
        #expect(plan.bindings.last == BindingDeclaration(queue: "chat.replies", exchange: "chat.replies", routingKey: "reply"))
        #expect(plan.bindings.count == base.bindings.count + 1)
    }
}
