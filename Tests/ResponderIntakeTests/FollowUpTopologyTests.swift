import Foundation
import Responder
import Testing

@testable import ResponderIntake

/// The follow-ups' delay queues: per delay a fanout exchange and a queue bound to it, holding a message for the delay
/// and then dead-lettering it to the input exchange under the routing key it came with (no dead-letter routing key),
/// so it comes back as producers' events come, to the notification's shard in ordered mode.
@Suite struct FollowUpTopologyTests {
    /// The names of the default ladder's exchanges and queues for `inputQueue`, shortest delay first.
    static func names(_ inputQueue: String = "responder.responses") -> [String] {
        ["1000ms", "10000ms", "60000ms", "600000ms", "3600000ms"].map { "\(inputQueue).follow-up.\($0)" }
    }

    static func exchanges(_ inputQueue: String = "responder.responses") -> [ExchangeDeclaration] {
        names(inputQueue).map { ExchangeDeclaration(name: $0, type: "fanout") }
    }

    static func bindings(_ inputQueue: String = "responder.responses") -> [BindingDeclaration] {
        names(inputQueue).map { BindingDeclaration(queue: $0, exchange: $0, routingKey: "#") }
    }

    @Test(arguments: [0, 2])
    func eachDelayQueueWaitsItsDelayThenLeadsBackToTheInputExchange(shards: Int) {
        var topology = Topology()
        topology.shards = shards
        topology.followUpDelays = [250, 5000]
        let queues = Dictionary(uniqueKeysWithValues: topology.declarations.queues.map { ($0.name, $0.arguments) })
        #expect(queues["responder.responses.follow-up.250ms"] == [
            "x-message-ttl": .integer(250), "x-dead-letter-exchange": .string("notifications.responses"),
        ])
        #expect(queues["responder.responses.follow-up.5000ms"]?["x-message-ttl"] == .integer(5000))
        #expect(topology.followUpLadder.steps.map(\.exchange) == [
            "responder.responses.follow-up.250ms", "responder.responses.follow-up.5000ms",
        ])
    }

    @Test func quorumDelayQueuesDeadLetterAtLeastOnce() {
        var topology = Topology()
        topology.outputQueueType = .quorum
        let queue = topology.declarations.queues.first { $0.name == "responder.responses.follow-up.1000ms" }
        #expect(queue?.arguments == [
            "x-queue-type": .string("quorum"), "x-dead-letter-strategy": .string("at-least-once"),
            "x-overflow": .string("reject-publish"), "x-message-ttl": .integer(1000),
            "x-dead-letter-exchange": .string("notifications.responses"),
        ])
    }

    @Test func thePipelineDefaultsToTheDefaultTopologysLadder() {
        #expect(PipelineConfiguration().followUpLadder == Topology().followUpLadder)
    }
}
