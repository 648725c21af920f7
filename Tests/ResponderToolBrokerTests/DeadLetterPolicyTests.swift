import AMQP
import BrokerHarness
import Foundation
import ResponderWorker
import Testing
import WorkerHarness

/// `responder topology --declare-policy` makes the queues the worker consumes dead-letter at least once: a message
/// the broker dead-letters from them while the dead-letter route is missing is kept, not dropped, and arrives once
/// the route is back.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct DeadLetterPolicyTests {
    /// The next message in `queue`, taken unacknowledged; throws when none comes within `hangGuard`.
    static func nextDelivery(on channel: AMQPChannel, from queue: String) async throws -> AMQPDelivery {
        let deadline = ContinuousClock.now + hangGuard
        while ContinuousClock.now < deadline {
            if let message = try await channel.get(queue: queue) { return message }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw HarnessError("no message in \(queue) within \(hangGuard)")
    }

    @Test func aDeadLetterWithoutARouteIsKeptUntilTheRouteIsBack() async throws {
        let managementURL = try #require(TestBroker.managementURL, "scripts/test sets AMQP_MANAGEMENT_URL")
        let topology = TestTopology("dead-letter-policy", deliveryLimit: 1)
        let names = topology.topology
        let probe = try await QueueProbe.open(topology)
        let policy = names.deadLetterPolicy

        // Declared after the queue exists, as for a deployment that predates the policy.
        let declared = try await Tool.run(
            ["topology", "--declare-policy"],
            environment: topology.environment.merging(["RESPONDER_MANAGEMENT_URL": managementURL]) { $1 })
        #expect(declared.status == 0, "\(declared.stderr)")
        #expect(declared.stderr.contains("topology: declared policy \(policy.name)"), "\(declared.stderr)")
        #expect(!declared.stderr.contains("guest:guest"), "the management URL's credentials are never printed")
        try await waitFor("the policy on \(names.inputQueue)") {
            try await TestBroker.ctl("list_queues", "--no-table-headers", "name", "policy").split(separator: "\n")
                .contains { $0 == "\(names.inputQueue)\t\(policy.name)" }
        }

        // The dead-letter exchange routes nowhere: its queue is gone.
        try await probe.channel.deleteQueue(names.deadLetterQueue)
        var properties = MessageProperties()
        properties.messageID = "crashes-every-worker"
        try await probe.publish(body: Array("{}".utf8), properties: properties)
        // Delivered once more than the limit allows, returned each time, as to workers that crash on it: the broker
        // dead-letters it.
        for _ in 0...names.deliveryLimit {
            let message = try await Self.nextDelivery(on: probe.channel, from: names.inputQueue)
            try probe.channel.nack(deliveryTag: message.deliveryTag, requeue: true)
        }

        // The route is back: the kept dead letter arrives (the test broker retries unrouted ones every second).
        try await topology.declare(on: probe.channel)
        let deadLetters = try await probe.takeDeadLetters(1)
        #expect(deadLetters.map(\.properties.messageID) == ["crashes-every-worker"], "kept, not dropped")
        #expect(deadLetters.first?.properties.headers["x-first-death-reason"] == "delivery_limit")
        try await TestBroker.ctl("clear_policy", policy.name)
        await probe.cleanUp()
    }
}
