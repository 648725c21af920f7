import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import Testing
import WorkerHarness

/// A handler's follow-up goes through the real broker: committed with the state, published to the topology's delay
/// queues, dead-lettered back to the input exchange under its notification's request identifier (in ordered mode to
/// the notification's shard) and handled by the same handler when due, on the state of that time, in order with the
/// notification's other events; a forged one does nothing, and one whose notification was replaced or removed is
/// ignored. The delay queues here hold 200 ms and 1 s (``TestTopology``).
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct FollowUpThroughBrokerTests {
    /// Publishes `event` as a producer does, routed by its notification's request identifier (its subject).
    private func publish<Payload>(_ event: CloudEvent<Payload>, _ probe: QueueProbe) async throws {
        try await probe.publish(
            body: EventCodec.encode(event),
            properties: MessageProperties(contentType: EventContentType.cloudEvents, messageID: event.id),
            routingKey: event.subject ?? "")
    }

    /// Every queue the worker consumes or a follow-up waits in is empty.
    private func expectSettled(_ topology: TestTopology, _ probe: QueueProbe) async throws {
        let ladder = topology.topology.followUpLadder.steps.map(\.exchange)
        for queue in topology.topology.consumedQueues + ladder { #expect(try await probe.count(queue) == 0, "\(queue)") }
    }

    @Test(arguments: [0, 2])
    func aFollowUpComesBackWhenDueToItsHandlerWithTheStateOfThatTime(shards: Int) async throws {
        let topology = TestTopology("follow-up", shards: shards)
        let probe = try await QueueProbe.open(topology)
        let journal = FollowingUpHandler.Journal()
        let registry = try FollowingUpHandler.registry(delay: .milliseconds(1500), journal)
        try await topology.declare(on: probe.channel)

        // Both taps wait in the queue before the worker starts, so the second is handled before the first's
        // follow-up is due however slowly the worker comes up.
        let request = "\(topology.prefix)-note"
        try await publish(FollowingUpHandler.tap("\(request)-e1", on: request), probe)
        try await publish(FollowingUpHandler.tap("\(request)-e2", on: request), probe)
        let worker = try InProcessWorker(topology: topology, registry: registry)
        let updates = try await probe.takeUpdates(1)
        try await worker.stop()

        let handled = try #require(journal.handled.first)
        #expect(journal.handled.count == 1)
        #expect(handled.id == FollowUp.id(source: "/tests", causedBy: "\(request)-e1", number: 1))
        #expect(handled.taps == 2, "the state of that time: both taps")
        #expect(handled.handledAt >= handled.dueDate, "never early")
        let update = try EventCodec.decodeActionSetUpdateEvent(try #require(updates.first).body)
        #expect(update.data.causationId == handled.id)
        #expect(update.data.actions == [FollowingUpHandler.like])
        let deadLetters = try await probe.takeDeadLetters(0, timeout: .zero)
        #expect(deadLetters.isEmpty, "\(QueueProbe.describe(deadLetters))")
        try await expectSettled(topology, probe)
        await probe.cleanUp()
    }

    /// In ordered mode a notification's follow-up comes back on its shard behind the events published before it came
    /// due, so the follow-ups of the replaced and the removed notification are handled (and ignored) before those of
    /// the notifications that replaced them, which publish the only follow-up updates.
    @Test func theFollowUpsOfANotificationReplacedOrRemovedSinceAreIgnored() async throws {
        let topology = TestTopology("follow-up-ignored", shards: 2)
        let probe = try await QueueProbe.open(topology)
        let journal = FollowingUpHandler.Journal()
        let registry = try FollowingUpHandler.registry(delay: .zero, journal)
        try await topology.declare(on: probe.channel)

        let replaced = "\(topology.prefix)-replaced"
        let removed = "\(topology.prefix)-removed"
        let later = Events.start.addingTimeInterval(60)
        try await publish(FollowingUpHandler.tap("\(replaced)-e1", on: replaced), probe)
        try await publish(FollowingUpHandler.tap("\(replaced)-e2", on: replaced, delivered: later), probe)
        try await publish(FollowingUpHandler.tap("\(removed)-e1", on: removed), probe)
        try await publish(Events.lifecycle(id: "\(removed)-gone", request: removed, change: .removedDelivered), probe)
        try await publish(FollowingUpHandler.tap("\(removed)-e2", on: removed, delivered: later), probe)
        let worker = try InProcessWorker(topology: topology, registry: registry)
        let updates = try await probe.takeUpdates(3)
        try await worker.stop()

        let expected = [replaced, removed].map { FollowUp.id(source: "/tests", causedBy: "\($0)-e2", number: 1) }
        #expect(Set(journal.handled.map(\.id)) == Set(expected))
        #expect(journal.handled.allSatisfy { $0.taps == 1 }, "on the fresh state of the notification that replaced")
        let followUpUpdates = updates.filter { $0.properties.type == EventType.actionSetUpdated }
        #expect(followUpUpdates.count == 2, "and the removal's notification.removed.v1")
        try await expectSettled(topology, probe)
        await probe.cleanUp()
    }

    /// Producers may publish to the input exchange, so follow-up messages can be forged: one naming a pending
    /// follow-up before it is due goes down the delay queues until the stored due date (handled once, never early,
    /// the second copy answered from the inbox), and one naming a follow-up that is not pending, or that is another
    /// notification's, before or after it was handled, is ignored.
    @Test func aForgedFollowUpDoesNothingTheStoredOneWouldNot() async throws {
        // The first wait is long enough to see the follow-up in it before it ends.
        let topology = TestTopology("follow-up-forged", followUpDelays: [200, 5000])
        let probe = try await QueueProbe.open(topology)
        let journal = FollowingUpHandler.Journal()
        let registry = try FollowingUpHandler.registry(delay: .seconds(6), journal)
        let worker = try InProcessWorker(topology: topology, registry: registry)
        try await worker.waitUntilReady()

        let request = "\(topology.prefix)-note"
        try await publish(FollowingUpHandler.tap("\(request)-e1", on: request), probe)
        try await waitFor("the follow-up committed and in its first delay queue") {
            try await probe.count(topology.topology.followUpLadder.steps.last!.exchange) == 1
        }
        let forge = { (id: String, request: String) in
            try await probe.publish(
                body: Array(#"{"followUp":"\#(id)","requestIdentifier":"\#(request)"}"#.utf8),
                properties: MessageProperties(contentType: "application/json", messageID: id, type: "responder.follow-up.v1"),
                routingKey: request)
        }
        let genuine = FollowUp.id(source: "/tests", causedBy: "\(request)-e1", number: 1)
        let other = "\(topology.prefix)-other"
        try await forge(genuine, request)
        try await forge(genuine, other)
        try await forge(FollowUp.id(source: "/tests", causedBy: "\(request)-e9", number: 1), request)
        let updates = try await probe.takeUpdates(2)
        // Once the stored one was handled, the inbox holds its id for its notification: a copy under another one is
        // still ignored. The other notification's removal behind it (handled in arrival order) says when it was.
        try await forge(genuine, other)
        try await publish(
            Events.lifecycle(
                id: "\(other)-gone", request: other, change: .removedDelivered, category: FollowingUpHandler.category),
            probe)
        let removal = try await probe.takeUpdates(1)
        try await worker.stop()

        #expect(journal.handled.count == 1, "handled once")
        let handled = try #require(journal.handled.first)
        #expect(handled.handledAt >= handled.dueDate, "not before the stored due date")
        #expect(Set(updates.map(\.properties.messageID)).count == 1, "the same update, the second answered from the inbox")
        #expect(removal.map(\.properties.type) == [EventType.notificationRemoved])
        let deadLetters = try await probe.takeDeadLetters(0, timeout: .zero)
        #expect(deadLetters.isEmpty, "\(QueueProbe.describe(deadLetters))")
        try await expectSettled(topology, probe)
        await probe.cleanUp()
    }
}
