import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import Testing
import WorkerHarness

/// A handler's message goes through the real broker to the destination its registration declares: the worker declares
/// the destination's exchange and queue at start and publishes the message, confirmed, before it acknowledges the
/// input.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct OutboxThroughBrokerTests {
    static let category = "outbox-category"

    /// Sends one message naming the event to `destination` for each default action.
    struct Sender: UserNotificationCenterDelegate {
        let destination: MessageDestination

        func didReceive(_ response: NotificationResponse, context: inout DelegateContext) async throws {
            context.send(Array("opened \(context.eventID)".utf8), to: destination, contentType: "text/plain")
        }
    }

    @Test func theWorkerDeclaresTheDestinationAndPublishesTheHandlersMessageThere() async throws {
        let topology = TestTopology("outbox")
        let destination = MessageDestination(
            name: "opened", exchange: "\(topology.prefix).opened", routingKey: "opened", queue: "\(topology.prefix).opened")
        var registry = HandlerRegistry(
            categories: CategoryRegistry([
                NotificationCategory(identifier: Self.category, actions: [NotificationAction(identifier: "a", title: "A")])
            ]))
        try registry.declare(destination)
        registry.setDelegate(Sender(destination: destination))
        let probe = try await QueueProbe.open(topology)
        let worker = try InProcessWorker(topology: topology, registry: registry)
        try await worker.waitUntilReady()

        let event = Events.response(id: "\(topology.prefix)-open", category: Self.category, action: .default)
        try await probe.publish(
            body: EventCodec.encode(event),
            properties: MessageProperties(contentType: "application/cloudevents+json", messageID: event.id),
            routingKey: Self.category)
        let sent = try await probe.take(1, from: "\(topology.prefix).opened")
        try await waitFor("the input acknowledged") { try await probe.count(topology.topology.inputQueue) == 0 }
        try await worker.stop()

        #expect(sent.map(\.body) == [Array("opened \(event.id)".utf8)])
        #expect(sent.first?.properties.messageID == SentMessage.messageID(causedBy: event.id, number: 1))
        #expect(sent.first?.exchange == destination.exchange && sent.first?.routingKey == "opened")
        _ = try? await probe.channel.deleteQueue(destination.queue!)
        try? await probe.channel.deleteExchange(destination.exchange)
        await probe.cleanUp()
    }
}
