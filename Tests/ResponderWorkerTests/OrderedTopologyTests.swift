import AMQP
import Foundation
import Testing

@testable import ResponderIntake
@testable import ResponderWorker

/// Ordered mode's topology for N shards: the input exchange feeds a consistent-hash exchange over N quorum queues
/// with a single active consumer each; no retry queues, since retries wait in place.
@Suite struct OrderedTopologyTests {
    static func ordered(_ shards: Int) -> Topology {
        var topology = Topology()
        topology.shards = shards
        return topology
    }

    @Test func zeroShardsIsTheUnorderedTopology() {
        #expect(!Topology().isOrdered)
        #expect(Topology().consumedQueues == ["responder.responses"])
        #expect(Topology().declarations.exchangeBindings.isEmpty)
    }

    @Test(arguments: [1, 4, 16])
    func theShardsOfAnOrderedTopology(shards: Int) {
        let topology = Self.ordered(shards)
        let plan = topology.declarations
        let names = (0..<shards).map { "responder.responses.shard.\($0)" }
        // The follow-ups' delay queues, the same in either mode (FollowUpTopologyTests).
        let ladder = topology.followUpLadder.steps.map(\.exchange)
        #expect(topology.isOrdered)
        #expect(topology.consumedQueues == names)
        #expect(plan.exchanges == [
            ExchangeDeclaration(name: "notifications.responses", type: "topic"),
            ExchangeDeclaration(name: "responder.responses.shards", type: "x-consistent-hash"),
            ExchangeDeclaration(name: "notifications.action-updates", type: "topic"),
            ExchangeDeclaration(name: "responder.dead-letter", type: "topic"),
        ] + ladder.map { ExchangeDeclaration(name: $0, type: "fanout") })
        // Last to first, so shard 0 on the broker means the others were declared before it.
        #expect(plan.queues.map(\.name) == names.reversed() + ["responder.action-updates", "responder.dead-letter"] + ladder)
        for name in names {
            #expect(plan.queues.first { $0.name == name }?.arguments == [
                "x-queue-type": .string("quorum"),
                "x-single-active-consumer": .boolean(true),
                "x-delivery-limit": .integer(5),
                "x-dead-letter-exchange": .string("responder.dead-letter"),
                "x-dead-letter-routing-key": .string(name),
            ])
        }
        #expect(!plan.queues.contains { $0.name.contains(".retry.") }, "retries wait in place")
        #expect(!plan.queues.contains { $0.name == "responder.responses" }, "no unordered input queue")
        #expect(plan.exchangeBindings == [
            ExchangeBindingDeclaration(
                destination: "responder.responses.shards", source: "notifications.responses", routingKey: "#")
        ])
        #expect(plan.bindings == names.map {
            BindingDeclaration(queue: $0, exchange: "responder.responses.shards", routingKey: "1")
        } + [
            BindingDeclaration(queue: "responder.action-updates", exchange: "notifications.action-updates", routingKey: "#"),
            BindingDeclaration(queue: "responder.dead-letter", exchange: "responder.dead-letter", routingKey: "#"),
        ] + ladder.map { BindingDeclaration(queue: $0, exchange: $0, routingKey: "#") })
    }

    @Test func shardNamesFollowTheInputQueue() {
        var topology = Self.ordered(2)
        topology.inputQueue = "work"
        #expect(topology.shardExchange == "work.shards")
        #expect(topology.consumedQueues == ["work.shard.0", "work.shard.1"])
    }

    @Test func theOrderedPlanRoundTripsThroughJSONAndPrints() throws {
        let plan = Self.ordered(4).declarations
        let data = try JSONEncoder().encode(plan)
        #expect(try JSONDecoder().decode(TopologyDeclarations.self, from: data) == plan)
        #expect(String(decoding: data, as: UTF8.self).contains(#""x-single-active-consumer":true"#))
        let text = plan.humanDescription
        #expect(text.contains("  responder.responses.shards  (x-consistent-hash, durable)"))
        #expect(text.contains("notifications.responses --[#]--> exchange responder.responses.shards"))
        #expect(text.contains("responder.responses.shards --[1]--> responder.responses.shard.3"))
        #expect(text.contains("x-single-active-consumer=true"))
    }

    @Test func theSingleActiveConsumerFlagIsDeclaredAsABoolean() {
        #expect(ArgumentValue.boolean(true).fieldValue == .bool(true))
    }
}
