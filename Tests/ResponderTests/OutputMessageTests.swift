import Foundation
import Logging
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// The action-set update message: everything in it derives from the input.
@Suite struct OutputMessageTests {
    let handler = TestExtension(actionSets: { _ in [[Fixtures.like, Fixtures.reply]] })

    private func output(
        of event: NotificationResponseEvent, headers: [String: JSONValue] = [:],
        configuration: PipelineConfiguration = PipelineConfiguration(),
        outputExchange: String = ResponsePipeline.defaultOutputExchange
    ) async throws -> OutboundMessage {
        let pipeline = ResponsePipeline(
            registry: try Fixtures.registry(extension: handler), store: InMemoryStateStore(),
            configuration: configuration, outputExchange: outputExchange, logger: .quiet)
        let outcome = await pipeline.process(Events.message(event, headers: headers))
        #expect(outcome.outputs.count == 1)
        return try #require(outcome.outputs.first)
    }

    @Test func theUpdateCarriesTheWholeNewActionSetAndItsCause() async throws {
        let event = Events.response(id: "input-7", request: "note-9")
        let message = try await output(of: event)
        let update = try message.update
        #expect(update.id == ActionSetUpdateEvent.id(causedBy: "input-7"))
        #expect(update.type == EventType.actionSetUpdated)
        #expect(update.source == "/responder")
        #expect(update.subject == "note-9")
        #expect(update.time == Events.start)
        #expect(
            update.data
                == ActionSetUpdate(
                    requestIdentifier: "note-9", categoryIdentifier: "photo-category", causationId: "input-7",
                    responseOption: .doNotDismiss, actions: [Fixtures.like, Fixtures.reply], version: 1))
        #expect(message.body == EventCodec.encode(update))
    }

    @Test func theMessageIsAddressedAndLabelledForConsumers() async throws {
        let message = try await output(of: Events.response(id: "input-7"))
        #expect(message.exchange == "notifications.action-updates")
        #expect(message.routingKey == "photo-category")
        #expect(
            message.properties
                == MessageProperties(
                    contentType: "application/cloudevents+json", messageID: "input-7/actions-updated",
                    correlationID: "input-7", type: "notification.actions.updated.v1", appID: "responder",
                    timestamp: UInt64(Events.start.timeIntervalSince1970), deliveryMode: .persistent))
    }

    @Test func traceHeadersAreCopiedAndOthersAreNot() async throws {
        let headers: [String: JSONValue] = [
            "traceparent": .string("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"),
            "tracestate": .string("congo=t61rcWkgMzE"), "x-other": .string("private"),
        ]
        let message = try await output(of: Events.response(id: "e1"), headers: headers)
        #expect(message.properties.jsonHeaders == headers.filter { $0.key != "x-other" })
    }

    @Test func withoutAnEventTimeTheNotificationDateIsUsedNeverTheClock() async throws {
        let delivered = Date(timeIntervalSince1970: 1_700_000_000)
        let message = try await output(of: Events.response(id: "e1", time: nil, delivered: delivered))
        #expect(try message.update.time == delivered)
        #expect(message.properties.timestamp == 1_700_000_000)
    }

    @Test func exchangeSourceAndAppIDAreConfigurable() async throws {
        var configuration = PipelineConfiguration()
        configuration.source = "urn:test"
        configuration.appID = "tester"
        let message = try await output(
            of: Events.response(id: "e1"), configuration: configuration, outputExchange: "custom.updates")
        #expect(message.exchange == "custom.updates")
        #expect(try message.update.source == "urn:test")
        #expect(message.properties.appID == "tester")
    }

    @Test func theSameInputGivesTheSameBytesInAFreshStore() async throws {
        let event = Events.response(id: "e1")
        let first = try await output(of: event)
        let second = try await output(of: event)
        #expect(first == second)
    }
}
