import Foundation
import NotificationEvents
import Responder
import Testing

/// The JSON form of a message's headers (`MessageProperties.jsonHeaders`): what a binary-mode event's attributes are
/// read from, and what fixture lines and stored outputs hold.
@Suite struct MessagePropertiesJSONTests {
    @Test func everyFieldValueHasAJSONForm() {
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

    /// Of a name given twice the last counts, except for a CloudEvents attribute, where the two are ambiguous and
    /// become an array that binary-mode decoding refuses.
    @Test func aCloudEventsAttributeGivenTwiceIsAmbiguous() {
        var headers = FieldTable()
        for (name, value) in [("cloudEvents_id", "a"), ("x-other", "1"), ("cloudEvents_id", "b"), ("x-other", "2")] {
            headers.appendDecoded(key: name, value: .string(value))
        }
        #expect(
            MessageProperties(headers: headers).jsonHeaders
                == ["cloudEvents_id": .array([.string("a"), .string("b")]), "x-other": .string("2")])
    }

    /// The binding's integer time counts milliseconds; an AMQP 0-9-1 timestamp counts seconds.
    @Test func aTimestampAttributeHeaderBecomesMilliseconds() {
        let properties = MessageProperties(headers: [
            "cloudEvents_time": .timestamp(1_795_165_207), "ce-time": .timestamp(.max), "sent": .timestamp(1_795_165_207),
        ])
        #expect(
            properties.jsonHeaders
                == [
                    "cloudEvents_time": .integer(1_795_165_207_000), "ce-time": .number(Double(UInt64.max)),
                    "sent": .integer(1_795_165_207),
                ])
    }

    /// A timestamp property past 2^63 - 1 seconds (any 64-bit value can arrive) is kept, and forwarded as it came;
    /// the contract's forms have no integer for it, so a fixture line and a stored output leave it out.
    @Test func aTimestampPastWhatTheContractHoldsIsKeptAndLeftOutOfTheJSONForms() throws {
        for seconds: UInt64 in [1 << 63, .max] {
            let properties = MessageProperties(timestamp: seconds)
            #expect(properties.timestamp == seconds)
            #expect(try MessageProperties(storedBytes: properties.storedBytes).timestamp == nil)
            let line = FixtureLine(delivered: InboundMessage(body: [], properties: properties))
            #expect(try EventCodec.decodeFixtureLine(EventCodec.encode(line)).properties.timestamp == nil)
            #expect(JSONValue(FieldValue.timestamp(seconds)) == .number(Double(seconds)))
        }
        let latest = MessageProperties(timestamp: (1 << 63) - 1)
        #expect(try MessageProperties(storedBytes: latest.storedBytes) == latest)
    }

    @Test func floatsJSONCannotCarryBecomeStringsAndEveryHeaderEncodes() throws {
        let headers: FieldTable = [
            "nan": .double(.nan), "inf": .double(.infinity), "minus-inf": .float(-.infinity),
            "signalling": .float(.signalingNaN), "tiny": .decimal(scale: 255, value: .max),
            "zero-scale-max": .decimal(scale: 0, value: .max), "future": .timestamp(.max),
            "nested": .array([.table(["nan": .double(.nan)])]),
        ]
        let json = MessageProperties(headers: headers).jsonHeaders
        #expect(json["nan"] == .string("NaN"))
        #expect(json["inf"] == .string("Infinity"))
        #expect(json["minus-inf"] == .string("-Infinity"))
        #expect(json["signalling"] == .string("NaN"))
        #expect(json["zero-scale-max"] == .number(4_294_967_295))
        #expect(json["nested"] == .array([.object(["nan": .string("NaN")])]))
        guard case .number(let tiny)? = json["tiny"] else {
            Issue.record("a decimal is a number")
            return
        }
        #expect(tiny.isFinite && tiny > 0)
        // What `responder record` writes: every header has a JSON form the contract encoder accepts.
        let line = FixtureLine(delivered: InboundMessage(body: [], properties: MessageProperties(headers: headers)))
        let decoded = try EventCodec.decodeFixtureLine(EventCodec.encode(line))
        #expect(decoded.properties.headers["inf"] == .string("Infinity"))
    }
}
