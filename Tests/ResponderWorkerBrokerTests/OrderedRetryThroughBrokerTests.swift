import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import Testing
import WorkerHarness

/// Ordered mode retries in place: a retryable failure is handled again after each retry delay while its
/// notification's later events wait, then dead-lettered with its attempts; the events behind it are handled after
/// it, in order. No retry queue exists. The worker runs in-process with ``FlakyHandler``, which fails on purpose.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct OrderedRetryThroughBrokerTests {
    @Test func aFailureIsRetriedInPlaceThenDeadLetteredAndTheEventsBehindItFollowInOrder() async throws {
        let topology = TestTopology("ordered-retry", retryDelays: [1, 2, 3], shards: 2)
        let probe = try await QueueProbe.open(topology)
        let calls = FlakyHandler.Calls()
        let worker = try InProcessWorker(topology: topology, registry: try FlakyHandler.registry(calls))
        try await worker.waitUntilReady()

        let request = { (behaviour: String) in "\(topology.prefix)-\(behaviour)" }
        let lines = (1...3).flatMap { event in
            ["always", "twice"].map { FlakyHandler.poke(request($0), event: event, topology) }
        }
        try await probe.publish(lines)
        let deadLetters = try await probe.takeDeadLetters(1)
        let updates = try await probe.takeUpdates(5)
        try await worker.stop()

        let always = request("always")
        let twice = request("twice")
        #expect(calls[request: always] == ["\(always)-e1", "\(always)-e1", "\(always)-e1", "\(always)-e1", "\(always)-e2", "\(always)-e3"],
                "one try and three retries in place, then the events behind it")
        #expect(calls[request: twice] == ["\(twice)-e1", "\(twice)-e1", "\(twice)-e1", "\(twice)-e2", "\(twice)-e3"])
        let causes = try updates.map { try EventCodec.decodeActionSetUpdateEvent($0.body).data.causationId }
        #expect(causes.filter { $0.hasPrefix(always) } == ["\(always)-e2", "\(always)-e3"])
        #expect(causes.filter { $0.hasPrefix(twice) } == ["\(twice)-e1", "\(twice)-e2", "\(twice)-e3"])

        let letter = try #require(deadLetters.first)
        #expect(letter.properties.messageID == "\(always)-e1")
        let info = try DeadLetterInfo(headers: letter.properties.jsonHeaders)
        #expect(info.reason == .retriesExhausted)
        #expect(info.attempts == 4)
        #expect(info.detail == "the downstream service is busy (call 4)", "the last error")
        #expect(info.originalExchange == topology.topology.inputExchange)
        #expect(info.originalRoutingKey == always, "re-driven, it goes to the same shard")
        #expect(info.lastFailure.timeIntervalSince(info.firstFailure) >= 5, "it waited 1 + 2 + 3 s")
        #expect(letter.properties.headers["x-death"] == nil, "never in a retry queue")

        for queue in topology.topology.consumedQueues { #expect(try await probe.count(queue) == 0) }
        await probe.cleanUp()
    }
}
