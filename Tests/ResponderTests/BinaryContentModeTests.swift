import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// The pipeline reads inputs in CloudEvents' binary content mode as it reads structured ones, and publishes updates
/// in binary mode when told to.
@Suite struct BinaryContentModeTests {
    let handler = TestExtension(actionSets: { _ in [[Fixtures.like, Fixtures.reply]] })

    private func pipeline(outputMode: EventContentMode = .structured) throws -> ResponsePipeline {
        var configuration = PipelineConfiguration()
        configuration.outputMode = outputMode
        return ResponsePipeline(
            registry: try Fixtures.registry(extension: handler), store: InMemoryStateStore(),
            configuration: configuration, logger: .quiet)
    }

    /// `event` in binary mode: its attributes as headers under `prefix`, its data as the body.
    private func binary(
        _ event: NotificationResponseEvent, prefix: String = BinaryModeHeaders.prefix,
        contentType: String? = "application/json", extra: [String: JSONValue] = [:]
    ) -> InboundMessage {
        let headers = BinaryModeHeaders.headers(of: event).map { (prefix + $0.key.dropFirst(BinaryModeHeaders.prefix.count), $0.value) }
        return Events.message(
            body: EventCodec.encode(event.data), contentType: contentType,
            headers: Dictionary(uniqueKeysWithValues: headers).merging(extra) { $1 })
    }

    @Test(arguments: BinaryModeHeaders.prefixes)
    func aBinaryInputGivesTheUpdateItsStructuredTwinGives(prefix: String) async throws {
        let event = Events.response(id: "input-7", request: "note-9")
        let structured = try await pipeline().process(Events.message(event))
        let binary = try await pipeline().process(binary(event, prefix: prefix, contentType: nil))
        #expect(binary.outputs.count == 1)
        #expect(binary.outputs == structured.outputs)
    }

    @Test func binaryHeadersOnAStructuredInputAreNotRead() async throws {
        let event = Events.response(id: "input-7")
        let outcome = try await pipeline().process(
            Events.message(event, headers: ["cloudEvents_specversion": .string("0.3"), "cloudEvents_id": .integer(1)]))
        #expect(outcome.outputs.count == 1)
    }

    @Test(arguments: [
        (["cloudEvents_id": JSONValue.integer(42)], DeadLetterReason.invalidField, "id: expected string, found number"),
        (["cloudEvents:id": .string("other")], .invalidField, "id: duplicate key"),
        (["ce-type": .string(EventType.notificationResponse)], .invalidField, "type: duplicate key"),
        (["cloudEvents_data": .object([:])], .invalidField, "data: duplicate key"),
        (["cloudEvents_source": .array([.string("/a"), .string("/b")])], .invalidField, "source: expected string, found array"),
        (["cloudEvents_specversion": .string("0.3")], .unknownSpecVersion, "unknown specversion \"0.3\", expected \"1.0\""),
        (["cloudEvents_time": .bool(true)], .invalidField, "time: expected string, found boolean"),
    ])
    func aHostileHeaderIsDeadLetteredAsInStructuredMode(
        headers: [String: JSONValue], reason: DeadLetterReason, detail: String
    ) async throws {
        let outcome = try await pipeline().process(binary(Events.response(id: "input-7"), extra: headers))
        guard case .deadLetter(let found, let foundDetail) = outcome else {
            Issue.record("not dead-lettered")
            return
        }
        #expect(found == reason)
        #expect(foundDetail == detail)
    }

    @Test func aBinaryInputWithAContentTypeOtherThanJSONIsRefused() async throws {
        let outcome = try await pipeline().process(binary(Events.response(id: "input-7"), contentType: "text/plain"))
        #expect(outcome.deadLetterReason == .unsupportedContentType)
    }

    @Test func theBinaryOutputModePutsTheAttributesInHeadersAndTheActionSetInTheBody() async throws {
        let traceparent = JSONValue.string("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
        let structured = try #require(
            try await pipeline().process(Events.message(Events.response(id: "input-7"), headers: ["traceparent": traceparent])).outputs.first)
        let message = try #require(
            try await pipeline(outputMode: .binary).process(
                Events.message(Events.response(id: "input-7"), headers: ["traceparent": traceparent])).outputs.first)
        let event = try structured.update
        #expect(message.properties.contentType == "application/json")
        #expect(message.body == EventCodec.encode(event.data))
        #expect(message.properties.jsonHeaders == BinaryModeHeaders.headers(of: event).merging(["traceparent": traceparent]) { $1 })
        #expect(message.properties.headers["cloudEvents_time"] == .string("2026-11-20T09:00:00Z"))
        var expectedProperties = structured.properties
        expectedProperties.contentType = "application/json"
        expectedProperties.headers = message.properties.headers
        #expect(message.properties == expectedProperties)
        // Sorted, as the stored form reads them back: an output republished from the inbox is the same message.
        #expect(message.properties.headers.keys == message.properties.headers.keys.sorted())
        #expect(try MessageProperties(storedBytes: message.properties.storedBytes) == message.properties)
        #expect(message.exchange == structured.exchange && message.routingKey == structured.routingKey)
        #expect(
            try EventCodec.decodeActionSetUpdateEvent(
                headers: message.properties.jsonHeaders, contentType: message.properties.contentType, body: message.body)
                == event)
    }
}
