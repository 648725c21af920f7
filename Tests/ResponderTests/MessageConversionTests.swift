import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// Messages and fixture lines convert both ways without losing anything the pipeline uses.
@Suite struct MessageConversionTests {
    let properties = MessageProperties(
        contentType: "application/cloudevents+json", contentEncoding: "identity", messageID: "m-1",
        correlationID: "c-1", type: "t", appID: "app", timestamp: 1_795_165_200, deliveryMode: .persistent,
        headers: ["attempt": .int64(2), "traceparent": .string("00-a-b-01")])

    @Test func anInboundMessageSurvivesAFixtureLine() throws {
        let message = InboundMessage(
            exchange: "notifications.responses", routingKey: "photo-category",
            body: EventCodec.encode(Events.response(id: "e1")), properties: properties, redelivered: true)
        let line = FixtureLine(delivered: message)
        #expect(line.body != nil && line.bodyBase64 == nil)
        #expect(InboundMessage(line) == message)
        let reread = try EventCodec.decodeFixtureLine(EventCodec.encode(line))
        #expect(InboundMessage(reread) == message)
    }

    /// What the state stores keep with an inbox entry's outputs: the members by their contract names, nil ones left
    /// out, headers always written as their JSON form (stores written before headers were a field table read the
    /// same bytes).
    @Test func theStoredFormOfPropertiesIsTheOneTheStoresKeep() throws {
        let stored = Array(
            (#"{"appId":"app","contentEncoding":"identity","contentType":"application/cloudevents+json","#
                + #""correlationId":"c-1","deliveryMode":2,"headers":{"attempt":2,"traceparent":"00-a-b-01"},"#
                + #""messageId":"m-1","timestamp":1795165200,"type":"t"}"#).utf8)
        #expect(properties.storedBytes == stored)
        #expect(try MessageProperties(storedBytes: stored) == properties)
        #expect(MessageProperties().storedBytes == Array(#"{"headers":{}}"#.utf8))
        // A row written when timestamps were signed (an event time before 1970) reads as what was published for it.
        let transient = Array(#"{"deliveryMode":1,"headers":{},"timestamp":-5}"#.utf8)
        #expect(try MessageProperties(storedBytes: transient) == MessageProperties(timestamp: 0, deliveryMode: .transient))
        #expect(MessageProperties(deliveryMode: .transient).storedBytes == Array(#"{"deliveryMode":1,"headers":{}}"#.utf8))
    }

    @Test func aBodyThatIsNotJSONTravelsAsBase64() {
        let message = InboundMessage(exchange: "x", routingKey: "r", body: [0xFF, 0x00, 0x7B])
        let line = FixtureLine(delivered: message)
        #expect(line.body == nil)
        #expect(line.bodyBase64 == "/wB7")
        #expect(InboundMessage(line).body == [0xFF, 0x00, 0x7B])
    }

    @Test func anOutboundMessageBecomesAFixtureLineWithoutRedelivered() {
        let output = OutboundMessage(
            exchange: "notifications.action-updates", routingKey: "photo-category", body: Array(#"{"a":1}"#.utf8),
            properties: MessageProperties(deliveryMode: .transient))
        let line = FixtureLine(published: output)
        #expect(line.redelivered == nil)
        #expect(line.properties == MessageProperties(deliveryMode: .transient))
        #expect(line.body == .object(["a": .integer(1)]))
    }

    /// A line's properties are the message's: no headers are left out of the file and read back as none.
    @Test func noHeadersAreLeftOutOfTheLineAndReadBackAsNone() throws {
        let output = OutboundMessage(
            exchange: "x", routingKey: "r", body: [], properties: MessageProperties(deliveryMode: .transient))
        let written = EventCodec.encode(FixtureLine(published: output))
        #expect(String(decoding: written, as: UTF8.self).contains(#""properties":{"deliveryMode":1}"#))
        #expect(try EventCodec.decodeFixtureLine(written).properties == output.properties)
    }
}
