import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// An extension that answers `.dismiss` or `.dismissAndForwardAction` publishes a dismissal, with or without an
/// action-set update, ordered per notification by its version.
@Suite struct DismissalTests {
    private func pipeline(
        option: ResponseOption, changesButtons: Bool, outputMode: EventContentMode = .structured,
        store: InMemoryStateStore = InMemoryStateStore()
    ) throws -> ResponsePipeline {
        let handler = TestExtension(
            actionSets: { _ in changesButtons ? [[Fixtures.like]] : [] }, option: option)
        var configuration = PipelineConfiguration()
        configuration.outputMode = outputMode
        return ResponsePipeline(
            registry: try Fixtures.registry(extension: handler), store: store, configuration: configuration,
            logger: .quiet)
    }

    @Test(arguments: [ResponseOption.dismiss, .dismissAndForwardAction])
    func aDismissalWithoutNewButtonsIsPublishedAndRaisesTheVersion(option: ResponseOption) async throws {
        let store = InMemoryStateStore()
        let outcome = try await pipeline(option: option, changesButtons: false, store: store)
            .process(Events.message(Events.response(id: "input-7", request: "note-9")))
        #expect(outcome.disposition == .updated)
        let message = try #require(outcome.outputs.first)
        #expect(outcome.outputs.count == 1)
        let dismissal = try EventCodec.decodeDeviceCommandEvent(message.body, as: Dismissal.self)
        #expect(dismissal.id == "input-7/dismissed")
        #expect(dismissal.type == EventType.notificationDismissed)
        #expect(dismissal.subject == "note-9" && dismissal.time == Events.start && dismissal.source == "/responder")
        #expect(
            dismissal.data
                == DeviceCommand(
                    requestIdentifier: "note-9", categoryIdentifier: "photo-category", causationId: "input-7",
                    version: 1))
        #expect(message.exchange == ResponsePipeline.defaultOutputExchange && message.routingKey == "photo-category")
        #expect(
            message.properties
                == MessageProperties(
                    contentType: "application/cloudevents+json", messageID: "input-7/dismissed",
                    correlationID: "input-7", type: "notification.dismissed.v1", appID: "responder",
                    timestamp: UInt64(Events.start.timeIntervalSince1970), deliveryMode: .persistent))
        #expect(await store.notification("note-9")?.version == 1)
    }

    @Test func withNewButtonsTheUpdateGoesFirstAndBothCarryOneVersion() async throws {
        let outcome = try await pipeline(option: .dismissAndForwardAction, changesButtons: true)
            .process(Events.message(Events.response(id: "input-7")))
        #expect(outcome.outputs.map(\.properties.type) == [EventType.actionSetUpdated, EventType.notificationDismissed])
        let update = try outcome.outputs[0].update
        let dismissal = try EventCodec.decodeDeviceCommandEvent(outcome.outputs[1].body, as: Dismissal.self)
        #expect(update.data.responseOption == .dismissAndForwardAction)
        #expect(update.data.version == 1 && dismissal.data.version == 1)
        #expect(dismissal.data.causationId == update.data.causationId)
    }

    @Test func eachDismissalOfANotificationIsAboveTheOneBeforeAndARedeliveryRepeatsItsOwn() async throws {
        let pipeline = try pipeline(option: .dismiss, changesButtons: false)
        var versions: [Int64] = []
        for id in ["e1", "e2", "e1"] {
            let outcome = await pipeline.process(Events.message(Events.response(id: id)))
            versions += try outcome.outputs.map { try EventCodec.decodeDeviceCommandEvent($0.body, as: Dismissal.self).data.version }
        }
        #expect(versions == [1, 2, 1])
    }

    @Test func keepingTheNotificationPublishesNoDismissal() async throws {
        let kept = try await pipeline(option: .doNotDismiss, changesButtons: false)
            .process(Events.message(Events.response(id: "e1")))
        #expect(kept.outputs.isEmpty && kept.disposition == .noUpdate)
        let updated = try await pipeline(option: .doNotDismiss, changesButtons: true)
            .process(Events.message(Events.response(id: "e1")))
        #expect(updated.outputs.map(\.properties.type) == [EventType.actionSetUpdated])
    }

    @Test func theBinaryOutputModeCarriesTheDismissalsAttributesInHeaders() async throws {
        let structured = try #require(
            try await pipeline(option: .dismiss, changesButtons: false)
                .process(Events.message(Events.response(id: "input-7"))).outputs.first)
        let message = try #require(
            try await pipeline(option: .dismiss, changesButtons: false, outputMode: .binary)
                .process(Events.message(Events.response(id: "input-7"))).outputs.first)
        let event = try EventCodec.decodeDeviceCommandEvent(structured.body, as: Dismissal.self)
        #expect(message.properties.contentType == "application/json")
        #expect(message.body == EventCodec.encode(event.data))
        #expect(message.properties.jsonHeaders == BinaryModeHeaders.headers(of: event))
        #expect(message.properties.messageID == structured.properties.messageID)
    }
}
