import Foundation
import Testing

@testable import ResponderIntake

/// The names and shapes the worker declares: the defaults the README documents, retry queues that lead back to
/// the input, and a plan that prints and encodes as it declares.
@Suite struct TopologyTests {
    let plan = Topology().declarations

    func queue(_ name: String) -> QueueDeclaration? { plan.queues.first { $0.name == name } }

    @Test func theDefaultNames() {
        #expect(plan.exchanges == [
            ExchangeDeclaration(name: "notifications.responses", type: "topic"),
            ExchangeDeclaration(name: "notifications.action-updates", type: "topic"),
            ExchangeDeclaration(name: "responder.dead-letter", type: "topic"),
        ] + FollowUpTopologyTests.exchanges())
        #expect(plan.queues.map(\.name) == [
            "responder.responses", "responder.action-updates", "responder.dead-letter",
            "responder.responses.retry.1s", "responder.responses.retry.10s", "responder.responses.retry.60s",
        ] + FollowUpTopologyTests.names())
        #expect(plan.bindings == [
            BindingDeclaration(queue: "responder.responses", exchange: "notifications.responses", routingKey: "#"),
            BindingDeclaration(queue: "responder.action-updates", exchange: "notifications.action-updates", routingKey: "#"),
            BindingDeclaration(queue: "responder.dead-letter", exchange: "responder.dead-letter", routingKey: "#"),
        ] + FollowUpTopologyTests.bindings())
    }

    @Test func theInputIsAQuorumQueueWithADeliveryLimitThatDeadLetters() {
        #expect(queue("responder.responses")?.arguments == [
            "x-queue-type": .string("quorum"),
            "x-delivery-limit": .integer(5),
            "x-dead-letter-exchange": .string("responder.dead-letter"),
            "x-dead-letter-routing-key": .string("responder.responses"),
        ])
        #expect(queue("responder.action-updates")?.arguments == [:])
        #expect(queue("responder.dead-letter")?.arguments == [:])
    }

    @Test func eachRetryQueueWaitsItsDelayThenLeadsBackToTheInputQueue() {
        for (attempt, seconds) in [(1, 1), (2, 10), (3, 60)] {
            let name = Topology().retryQueue(attempt: attempt)
            #expect(name == "responder.responses.retry.\(seconds)s")
            #expect(queue(name)?.arguments == [
                "x-message-ttl": .integer(Int64(seconds) * 1000),
                "x-dead-letter-exchange": .string(""),
                "x-dead-letter-routing-key": .string("responder.responses"),
            ])
        }
    }

    @Test func quorumOutputQueuesAreReplicatedAndRetriesDeadLetterAtLeastOnce() {
        var topology = Topology()
        topology.outputQueueType = .quorum
        let plan = topology.declarations
        let queues = Dictionary(uniqueKeysWithValues: plan.queues.map { ($0.name, $0.arguments) })
        #expect(queues["responder.action-updates"] == ["x-queue-type": .string("quorum")])
        #expect(queues["responder.dead-letter"] == ["x-queue-type": .string("quorum")])
        #expect(queues["responder.responses.retry.10s"] == [
            "x-queue-type": .string("quorum"),
            "x-dead-letter-strategy": .string("at-least-once"),
            "x-overflow": .string("reject-publish"),
            "x-message-ttl": .integer(10_000),
            "x-dead-letter-exchange": .string(""),
            "x-dead-letter-routing-key": .string("responder.responses"),
        ])
        #expect(queues["responder.responses"] == Topology().declarations.queues.first?.arguments, "the input is unchanged")
    }

    @Test func namesAndRetriesFollowTheConfiguration() {
        var topology = Topology()
        topology.inputExchange = "in"
        topology.inputQueue = "work"
        topology.outputExchange = "out"
        topology.outputQueue = "push"
        topology.deadLetterExchange = "dlx"
        topology.deadLetterQueue = "dlq"
        topology.retryDelays = [2, 30]
        topology.deliveryLimit = 9
        let plan = topology.declarations
        #expect(plan.exchanges.map(\.name) == ["in", "out", "dlx"] + FollowUpTopologyTests.names("work"))
        #expect(plan.queues.map(\.name) == ["work", "push", "dlq", "work.retry.2s", "work.retry.30s"] + FollowUpTopologyTests.names("work"))
        #expect(plan.queues[0].arguments["x-delivery-limit"] == .integer(9))
        #expect(plan.queues[0].arguments["x-dead-letter-exchange"] == .string("dlx"))
        #expect(plan.queues[4].arguments["x-message-ttl"] == .integer(30_000))
        #expect(plan.queues[4].arguments["x-dead-letter-routing-key"] == .string("work"))
        #expect(plan.bindings.map { "\($0.exchange)>\($0.queue)" } == ["in>work", "out>push", "dlx>dlq"] + FollowUpTopologyTests.names("work").map { "\($0)>\($0)" })
    }

    @Test func thePlanRoundTripsThroughJSON() throws {
        let data = try JSONEncoder().encode(plan)
        #expect(try JSONDecoder().decode(TopologyDeclarations.self, from: data) == plan)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""x-message-ttl":1000"#), "integer arguments stay numbers")
        #expect(text.contains(#""x-queue-type":"quorum""#))
    }

    @Test func theHumanFormListsEveryDeclaration() {
        let text = plan.humanDescription
        for exchange in plan.exchanges { #expect(text.contains("  \(exchange.name)  (\(exchange.type), durable)")) }
        for queue in plan.queues { #expect(text.contains("  \(queue.name)  (durable")) }
        #expect(text.contains("x-delivery-limit=5"))
        #expect(text.contains(#"x-queue-type="quorum""#))
        #expect(text.contains("notifications.responses --[#]--> responder.responses"))
    }
}
