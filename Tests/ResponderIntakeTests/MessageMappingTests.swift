import AMQP
import Foundation
import NotificationEvents
import Responder
import ResponderIntake
import Testing

/// The pipeline's transport-agnostic messages and AMQP's map into each other without losing what the contract
/// keeps.
@Suite struct MessageMappingTests {
    static let properties = MessageProperties(
        contentType: "application/cloudevents+json", contentEncoding: "utf-8", messageId: "evt-1",
        correlationId: "evt-0", type: "notification.response.v1", appId: "red-green", timestamp: 1_795_165_207,
        deliveryMode: .persistent,
        headers: [
            "traceparent": .string("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"),
            "x-responder-attempts": .int64(2),
            "ratio": .double(0.5),
            "flag": .bool(true),
            "nothing": .void,
            "list": .array([.int64(1), .string("two")]),
            "nested": .table(["b": .int64(2), "a": .string("one")]),
        ])

    @Test func propertiesSurviveTheTripThroughAMQP() {
        #expect(MessageProperties(BasicProperties(Self.properties)) == Self.properties)
    }

    @Test func amqpPropertiesGetTheirContractNames() {
        let amqp = BasicProperties(Self.properties)
        #expect(amqp.contentType == "application/cloudevents+json")
        #expect(amqp.contentEncoding == "utf-8")
        #expect(amqp.messageID == "evt-1")
        #expect(amqp.correlationID == "evt-0")
        #expect(amqp.type == "notification.response.v1")
        #expect(amqp.appID == "red-green")
        #expect(amqp.timestamp == 1_795_165_207)
        #expect(amqp.deliveryMode == .persistent)
        #expect(amqp.headers == Self.properties.headers)
    }

    /// Headers pass through the pipeline's properties as the wire carried them: each value's width, the order and a
    /// repeated name are kept (their JSON form, which kept none of them, is made only where JSON is wanted).
    @Test func aDeliverysHeadersAreKeptAsTheyArrived() {
        var headers: FieldTable = ["z-first": .int8(-1), "bytes": .bytes([0, 255]), "when": .timestamp(7)]
        headers.appendDecoded(key: "z-first", value: .uint16(9))
        let delivery = AMQPDelivery(
            body: [], properties: BasicProperties(headers: headers), exchange: "e", routingKey: "k", redelivered: false,
            deliveryTag: 1, consumerTag: "c")
        let properties = InboundMessage(delivery).properties
        #expect(properties.headers == headers)
        #expect(BasicProperties(properties).headers == headers)
        #expect(properties.jsonHeaders == ["z-first": .integer(9), "bytes": .string("AP8="), "when": .integer(7)])
    }

    @Test func aTransientMessageStaysTransientAndAbsentPropertiesStayAbsent() {
        let transient = MessageProperties(deliveryMode: .transient, headers: [:])
        #expect(BasicProperties(transient).deliveryMode == .transient)
        let bare = BasicProperties(MessageProperties(headers: [:]))
        #expect(bare == BasicProperties())
        #expect(MessageProperties(BasicProperties()) == MessageProperties(headers: [:]))
    }

    @Test func everyAMQPFieldValueHasAJSONForm() {
        let cases: [(FieldValue, JSONValue)] = [
            (.bool(false), .bool(false)),
            (.int8(-8), .integer(-8)), (.int16(-16), .integer(-16)), (.int32(-32), .integer(-32)),
            (.int64(-64), .integer(-64)), (.uint8(8), .integer(8)), (.uint16(16), .integer(16)),
            (.uint32(32), .integer(32)), (.float(0.5), .number(0.5)), (.double(0.25), .number(0.25)),
            (.decimal(scale: 2, value: 1234), .number(12.34)), (.string("s"), .string("s")),
            (.bytes([0, 1, 2]), .string("AAEC")), (.timestamp(1_795_165_207), .integer(1_795_165_207)), (.void, .null),
            (.array([.int32(1), .void]), .array([.integer(1), .null])),
            (.table(["k": .uint8(1)]), .object(["k": .integer(1)])),
        ]
        for (field, json) in cases {
            #expect(JSONValue(field) == json, "\(field)")
        }
    }

    @Test func aDeliveryBecomesTheInboundMessageThePipelineReads() {
        let delivery = AMQPDelivery(
            body: [1, 2, 3], properties: BasicProperties(Self.properties), exchange: "notifications.responses",
            routingKey: "red-category", redelivered: true, deliveryTag: 9, consumerTag: "c")
        let message = InboundMessage(delivery)
        #expect(message.body == [1, 2, 3])
        #expect(message.properties == Self.properties)
        #expect(message.exchange == "notifications.responses")
        #expect(message.routingKey == "red-category")
        #expect(message.redelivered)
    }

    /// A field table may name a header twice: the last value counts, except for a CloudEvents attribute, where the
    /// two are ambiguous and become an array that binary-mode decoding refuses.
    @Test func aCloudEventsAttributeGivenTwiceInOneTableIsAmbiguous() throws {
        // As the wire can carry it (FieldTable's own initialisers merge repeated keys): long strings, then short ints.
        func entry(_ key: String, _ type: Character, _ value: [UInt8]) -> [UInt8] {
            [UInt8(key.utf8.count)] + Array(key.utf8) + [UInt8(ascii: type.unicodeScalars.first!)] + value
        }
        func text(_ value: String) -> [UInt8] { [0, 0, 0, UInt8(value.utf8.count)] + Array(value.utf8) }
        let entries = entry("cloudEvents_id", "S", text("a")) + entry("cloudEvents_id", "S", text("b"))
            + entry("x-other", "b", [1]) + entry("x-other", "b", [2])
        var properties = BasicProperties()
        properties.headers = try #require(FieldTable(wire: [0, 0, 0, UInt8(entries.count)] + entries))
        #expect(properties.headers.count == 4)
        #expect(
            MessageProperties(properties).jsonHeaders
                == ["cloudEvents_id": .array([.string("a"), .string("b")]), "x-other": .integer(2)])
    }

    /// The binding's integer time counts milliseconds; an AMQP 0-9-1 timestamp counts seconds.
    @Test func aTimestampAttributeHeaderBecomesMilliseconds() {
        var properties = BasicProperties()
        properties.headers = [
            "cloudEvents_time": .timestamp(1_795_165_207), "ce-time": .timestamp(.max), "sent": .timestamp(1_795_165_207),
        ]
        #expect(
            MessageProperties(properties).jsonHeaders
                == [
                    "cloudEvents_time": .integer(1_795_165_207_000), "ce-time": .number(Double(UInt64.max)),
                    "sent": .integer(1_795_165_207),
                ])
    }

    @Test func aTimestampPastWhatTheContractHoldsIsLeftOutAndNothingTraps() {
        for seconds: UInt64 in [1 << 63, .max] {
            #expect(MessageProperties(BasicProperties(timestamp: seconds)).timestamp == nil)
            #expect(JSONValue(FieldValue.timestamp(seconds)) == .number(Double(seconds)))
        }
        #expect(MessageProperties(BasicProperties(timestamp: (1 << 63) - 1)).timestamp == .max)
        #expect(MessageProperties(BasicProperties(timestamp: 0)).timestamp == 0)
    }

    @Test func floatsJSONCannotCarryBecomeStringsAndEveryHeaderEncodes() {
        let headers: FieldTable = [
            "nan": .double(.nan), "inf": .double(.infinity), "minus-inf": .float(-.infinity),
            "signalling": .float(.signalingNaN), "tiny": .decimal(scale: 255, value: .max),
            "zero-scale-max": .decimal(scale: 0, value: .max), "future": .timestamp(.max),
            "nested": .array([.table(["nan": .double(.nan)])]),
        ]
        let properties = MessageProperties(BasicProperties(headers: headers))
        #expect(properties.jsonHeaders["nan"] == .string("NaN"))
        #expect(properties.jsonHeaders["inf"] == .string("Infinity"))
        #expect(properties.jsonHeaders["minus-inf"] == .string("-Infinity"))
        #expect(properties.jsonHeaders["signalling"] == .string("NaN"))
        #expect(properties.jsonHeaders["zero-scale-max"] == .number(4_294_967_295))
        #expect(properties.jsonHeaders["nested"] == .array([.object(["nan": .string("NaN")])]))
        guard case .number(let tiny)? = properties.jsonHeaders["tiny"] else {
            Issue.record("a decimal is a number")
            return
        }
        #expect(tiny.isFinite && tiny > 0)
        // What `responder record` writes: every header has a JSON form the contract encoder accepts.
        let line = FixtureLine(InboundMessage(body: [], properties: properties))
        let decoded = try? EventCodec.decodeFixtureLine(EventCodec.encode(line))
        #expect(decoded?.properties.headers["inf"] == .string("Infinity"))
    }
}
