import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import ResponderIntake
@testable import ResponderWorker
import Synchronization
import Testing
import WorkerHarness

/// An unavailable state store pauses the worker and hands its inputs back to the queue without counting them against
/// the quorum queue's delivery limit: on this broker a requeue counts (the control), and inputs handed back again and
/// again through an input queue with a delivery limit of 1 are still all handled, none dead-lettered.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct StorePauseTests {
    /// An in-memory store whose first `failures` commits fail as unavailable, and whose availability check always
    /// answers: the worker resumes at once and meets the failure again, so each input goes back several times.
    actor FlappingStore: StateStore {
        let inboxRetention = Duration.seconds(3_600)
        let notificationRetention = Duration.seconds(3_600)
        private let memory = InMemoryStateStore()
        private var failuresLeft: Int
        private(set) var checks = 0

        init(failures: Int) { failuresLeft = failures }

        func load(_ loads: [StateLoad]) async throws -> [Result<StateSnapshot, any Error>] { await memory.load(loads) }
        func commit(_ commits: [StateCommit]) async throws -> [Result<CommitResult, any Error>] {
            guard failuresLeft == 0 else {
                failuresLeft -= 1
                throw StateStoreUnavailable(reason: "disk I/O error (a test's store)")
            }
            return await memory.commit(commits)
        }
        func notification(_ requestIdentifier: String) async -> NotificationRecord? {
            await memory.notification(requestIdentifier)
        }
        func inboxEntries(of requestIdentifier: String, limit: Int) async -> [InboxEntry] {
            await memory.inboxEntries(of: requestIdentifier, limit: limit)
        }
        func pruneInbox(processedBefore cutoff: Date) async -> Int { 0 }
        func pruneNotifications(changedBefore cutoff: Date) async -> Int { 0 }
        func checkAvailability() { checks += 1 }
    }

    /// The control: on this broker a requeue, by basic.reject (what the worker sends when the broker refused an
    /// output) as by basic.nack, counts against a quorum queue's delivery limit: after two, a limit of 1 dead-letters
    /// the message. A hand-back copy starts afresh: rejected once, it is still there.
    @Test func aRequeueCountsAgainstTheDeliveryLimitAHandBackDoesNot() async throws {
        let topology = TestTopology("requeue-count", deliveryLimit: 1)
        let probe = try await QueueProbe.open(topology)
        let queue = topology.topology.inputQueue
        let poke = FlakyHandler.poke("fine", topology)
        try await probe.publish([poke])

        let first = try #require(try await probe.channel.get(queue: queue))
        try probe.channel.reject(deliveryTag: first.deliveryTag, requeue: true)
        let second = try #require(try await probe.channel.get(queue: queue))
        #expect(second.properties.headers["x-delivery-count"]?.intValue == 1, "basic.reject counted")
        try probe.channel.nack(deliveryTag: second.deliveryTag, requeue: true)
        #expect(try await probe.takeDeadLetters(1).map(\.body) == [poke.bodyBytes], "basic.nack counted: over the limit")

        try await probe.publish([poke])
        let original = try #require(try await probe.channel.get(queue: queue))
        try probe.channel.reject(deliveryTag: original.deliveryTag, requeue: true)
        let redelivered = try #require(try await probe.channel.get(queue: queue))
        let copy = ForwardedInput.handBack(redelivered, to: queue)
        try await probe.channel.publish(copy.body, exchange: copy.exchange, routingKey: copy.routingKey, properties: copy.properties)
        try probe.channel.ack(deliveryTag: redelivered.deliveryTag)
        let handedBack = try #require(try await probe.channel.get(queue: queue))
        #expect(handedBack.body == poke.bodyBytes)
        try probe.channel.reject(deliveryTag: handedBack.deliveryTag, requeue: true)
        let stillThere = try #require(try await probe.channel.get(queue: queue), "the copy's count started at 0")
        try probe.channel.ack(deliveryTag: stillThere.deliveryTag)
        #expect(try await probe.count(topology.topology.deadLetterQueue) == 0)
        await probe.cleanUp()
    }

    @Test func inputsHandedBackAgainAndAgainAreHandledOnceAndNeverDeadLettered() async throws {
        let topology = TestTopology("store-pause", deliveryLimit: 1)
        let probe = try await QueueProbe.open(topology)
        // Three failures per input on average, so some input fails at least three times and goes back at least
        // twice: with a requeue, the control shows, a delivery limit of 1 would dead-letter it.
        let inputs = 20
        let store = FlappingStore(failures: inputs * 3)
        let worker = try InProcessWorker(
            topology: topology, registry: try FlakyHandler.registry(FlakyHandler.Calls()),
            store: store, storeRetryBackoff: Backoff(initial: .milliseconds(20), maximum: .milliseconds(50)))
        try await worker.waitUntilReady()

        let pokes = (1...inputs).map { FlakyHandler.poke("fine-\($0)", topology) }
        try await probe.publish(pokes)
        let updates = try await probe.takeUpdates(inputs)
        try await worker.stop()

        #expect(updates.count == inputs, "one update per input, none twice")
        #expect(Set(updates.compactMap(\.properties.correlationID)) == Set(pokes.compactMap(\.properties.messageID)))
        #expect(try await probe.count(topology.topology.deadLetterQueue) == 0, "an outage costs an input nothing")
        #expect(try await probe.count(topology.topology.inputQueue) == 0)
        #expect(await store.checks >= 1, "the worker paused and checked the store before it resumed")
        await probe.cleanUp()
    }
}
