import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import Testing
import WorkerHarness

/// A handler that fails retryably sends its input through the retry queues, each trip counted in a header, and
/// after the last one to the dead-letter queue with its last error; a permanent failure is dead-lettered at once.
/// The worker runs in-process with ``FlakyHandler``, which fails on purpose.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct RetryThroughBrokerTests {
    @Test func retryableFailuresGoThroughEveryRetryQueueThenAreDeadLetteredPermanentOnesAtOnce() async throws {
        let topology = TestTopology("retry", retryDelays: [1, 2, 3])
        let probe = try await QueueProbe.open(topology)
        let calls = FlakyHandler.Calls()
        let worker = try InProcessWorker(topology: topology, registry: try FlakyHandler.registry(calls))
        try await worker.waitUntilReady()

        let pokes = ["always", "twice", "permanent", "fine"].map { FlakyHandler.poke($0, topology) }
        try await probe.publish(pokes)
        let deadLetters = try await probe.takeDeadLetters(2)
        let updates = try await probe.takeUpdates(2)
        try await worker.stop()

        let id = { (behaviour: String) in "\(topology.prefix)-\(behaviour)" }
        #expect(calls[id("always")] == 4, "one try and three retries")
        #expect(calls[id("twice")] == 3)
        #expect(calls[id("permanent")] == 1, "a permanent failure is not retried")
        #expect(calls[id("fine")] == 1)
        #expect(Set(updates.compactMap(\.properties.correlationID)) == [id("twice"), id("fine")])

        #expect(deadLetters.count == 2)
        let byID = Dictionary(uniqueKeysWithValues: deadLetters.map { ($0.properties.messageID ?? "", $0) })
        let exhausted = try #require(byID[id("always")])
        let exhaustedInfo = try DeadLetterInfo(headers: exhausted.properties.jsonHeaders)
        #expect(exhaustedInfo.reason == .retriesExhausted)
        #expect(exhaustedInfo.attempts == 4)
        #expect(exhaustedInfo.detail == "the downstream service is busy (call 4)", "the last error")
        #expect(exhaustedInfo.originalExchange == topology.topology.inputExchange)
        #expect(exhaustedInfo.originalRoutingKey == FlakyHandler.category)
        #expect(exhaustedInfo.worker == worker.workerID)
        #expect(exhaustedInfo.lastFailure.timeIntervalSince(exhaustedInfo.firstFailure) >= 5, "it waited 1 + 2 + 3 s")
        #expect(exhausted.body == pokes[0].bodyBytes)
        #expect(exhausted.routingKey == FlakyHandler.category)
        // The broker's own record of the trips: each retry queue once, in order.
        let deaths = exhausted.properties.headers["x-death"]?.arrayValue?.compactMap(\.tableValue) ?? []
        let retryQueues = (1...3).map(topology.topology.retryQueue(attempt:))
        #expect(Set(deaths.compactMap { $0["queue"]?.stringValue }) == Set(retryQueues))
        #expect(deaths.allSatisfy { $0["count"]?.intValue == 1 && $0["reason"]?.stringValue == "expired" })

        let failed = try #require(byID[id("permanent")])
        let failedInfo = try DeadLetterInfo(headers: failed.properties.jsonHeaders)
        #expect(failedInfo.reason == .handlerFailed)
        #expect(failedInfo.attempts == 1)
        #expect(failedInfo.detail == "the button was withdrawn (call 1)")
        #expect(failed.properties.headers["x-death"] == nil, "never in a retry queue")

        #expect(try await probe.count(topology.topology.inputQueue) == 0)
        for queue in retryQueues { #expect(try await probe.count(queue) == 0) }
        await probe.cleanUp()
    }

    @Test func aRetryWaitsInItsRetryQueueWithTheAttemptCountAndNoReason() async throws {
        // A long delay holds the retry in its queue while the test looks at it.
        let topology = TestTopology("retry-wait", retryDelays: [300])
        let probe = try await QueueProbe.open(topology)
        let calls = FlakyHandler.Calls()
        let worker = try InProcessWorker(topology: topology, registry: try FlakyHandler.registry(calls))
        try await worker.waitUntilReady()

        let poke = FlakyHandler.poke("always", topology)
        try await probe.publish([poke])
        let retryQueue = topology.topology.retryQueue(attempt: 1)
        try await waitFor("the retry in \(retryQueue)") { try await probe.count(retryQueue) == 1 }
        try await worker.stop()

        let retry = try #require(try await probe.channel.get(queue: retryQueue))
        let headers = retry.properties.headers
        #expect(headers["x-responder-attempts"]?.intValue == 1)
        #expect(headers["x-responder-reason"] == nil, "a retry is not a dead letter")
        #expect(headers["x-responder-detail"]?.stringValue == "the downstream service is busy (call 1)")
        #expect(headers["x-responder-original-exchange"]?.stringValue == topology.topology.inputExchange)
        #expect(headers["x-responder-original-routing-key"]?.stringValue == FlakyHandler.category)
        #expect(headers["x-responder-worker"]?.stringValue == worker.workerID)
        #expect(retry.body == poke.bodyBytes)
        #expect(retry.properties.messageID == poke.properties.messageID)
        #expect(retry.properties.deliveryMode == .persistent)
        #expect(calls["\(topology.prefix)-always"] == 1)
        #expect(try await probe.count(topology.topology.inputQueue) == 0, "the input was acked once the retry was confirmed")
        #expect(try await probe.count(topology.topology.deadLetterQueue) == 0)
        try probe.channel.ack(deliveryTag: retry.deliveryTag)
        await probe.cleanUp()
    }
}
