import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import Testing

/// A fixture line has a writer of its own (FixtureLine+JSON.swift): it writes the bytes of the generic contract
/// encoder, which a line inside an array still goes through, and of Foundation's `JSONEncoder`.
@Suite struct FixtureLineWriterTests {
    static let fixtures = Paths.root.appendingPathComponent("Fixtures")

    /// Properties as a producer records them, every one set; headers in the order a fixture line keeps them (its
    /// `headers` is a JSON object, read back sorted by name).
    static let recordedProperties = MessageProperties(
        contentType: EventContentType.cloudEvents, contentEncoding: "identity", messageID: "evt-0002",
        correlationID: "evt-0001", type: EventType.notificationResponse, appID: "ios-app", timestamp: 1_795_165_205,
        deliveryMode: .persistent, headers: ["x-count": .int64(3), "x-trace": .string("abc")])

    static func expectWrittenAsBefore(_ line: FixtureLine, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let direct = EventCodec.encode(line)
        let generic = Array(EventCodec.encode([line]).dropFirst().dropLast())
        #expect(String(decoding: direct, as: UTF8.self) == String(decoding: generic, as: UTF8.self), sourceLocation: sourceLocation)
        #expect(direct == Array(try EventCodec.encoder.encode(line)), sourceLocation: sourceLocation)
        // Read back, a line writes the same bytes again (its values may differ: `1E2` reads back as the integer 100).
        #expect(EventCodec.encode(try EventCodec.decodeFixtureLine(direct)) == direct, sourceLocation: sourceLocation)
    }

    /// Foundation's `JSONEncoder` writes a line with every property set, and a body with spacing, byte for byte.
    @Test func foundationWritesTheSameBytes() throws {
        let line = FixtureLine(
            exchange: "notifications", routingKey: "r", redelivered: true, properties: Self.recordedProperties,
            bodyBytes: Array(#"{"z": [1, 2.5, -0, 1E2, "\u00e9\n"], "a": {"y": null, "b": true}}"#.utf8))
        #expect(EventCodec.encode(line) == Array(try EventCodec.encoder.encode(line)))
    }

    /// Every line of every recorded session and golden file under Fixtures/.
    @Test func everyFixtureLine() throws {
        let files = try #require(FileManager.default.enumerator(at: Self.fixtures, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "jsonl" }
        #expect(files.count >= 2)
        var lines = 0
        for file in files {
            for text in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                // A session may record a line that is not a fixture line on purpose (malformed.jsonl).
                guard let line = try? EventCodec.decodeFixtureLine(Array(text.utf8)) else { continue }
                try Self.expectWrittenAsBefore(line)
                lines += 1
            }
        }
        #expect(lines > 20)
    }

    /// Each optional member present and absent, a base64 body, an empty and a full set of properties, and strings
    /// that need escapes.
    @Test(arguments: [false, true])
    func everyShape(redelivered: Bool) throws {
        let tricky = "quote \" back \\ / controls \u{0}\u{1F} del \u{7F} é e\u{301} 🔴 \u{2028}"
        let properties: [MessageProperties] = [
            .init(),
            Self.recordedProperties,
            .init(
                contentType: tricky, contentEncoding: tricky, messageID: tricky, correlationID: tricky, type: tricky,
                appID: tricky, timestamp: 0, deliveryMode: .transient,
                headers: [tricky: .string(tricky), "a": .array([.void, .bool(false), .double(-2.5)]), "": .table([:])]),
            .init(timestamp: .max, headers: [:]),
            .init(type: "t"),
        ]
        let bodies: [[UInt8]] = [
            Array(#" {"z": [1, 2.5, -0, 1E2, "\u00e9\n"], "a": {"y": null, "b": true}, "é": 1, "e": 2} "#.utf8),
            Array("not json".utf8), [], [0x7B, 0xFF, 0x7D], Array("null".utf8), Array("[]".utf8),
        ]
        for properties in properties {
            for body in bodies {
                for flag in [nil, redelivered] {
                    try Self.expectWrittenAsBefore(
                        FixtureLine(exchange: tricky, routingKey: "", redelivered: flag, properties: properties, bodyBytes: body))
                }
            }
        }
        // Bodies already in the stable form are kept and written as they are, the others parsed and written anew:
        // each kind of difference the check must notice (spacing, key order, escapes, -0, floats, long integers),
        // bodies that are not JSON at all, and the nesting limit on both sides.
        let texts = [
            #"{"B":{"":[[]]},"a":[1,-2,0,"x\n\u0001\u001f é\"\\\b\f\r\t",true,false,null,{},[]],"b":{"c":"d"}}"#,
            "[\"\u{2028}\u{7F}🔴\"]", "[123456789012345678,-123456789012345678]", #""plain""#, "-12", "true", "{}", "[]",
            #"{"b":1,"a":2}"#, #"{"a":1,"a":2}"#, #"{"a":1 }"#, #" {"a":1}"#, #"{"a":1} "#, #"[1 ,2]"#, #"{"a" :1}"#,
            #"[-0]"#, #"[1.5]"#, #"[1E2]"#, #"[1e2]"#, #"[1234567890123456789]"#, #"[12345678901234567890]"#, #"[01]"#,
            #"["\u00e9"]"#, #"["\/"]"#, #"["\u000a"]"#, #"["\u001F"]"#, #"["\u0008"]"#, #"["\ud83d\udd34"]"#,
            #"{"\u0061":1}"#, #"{"é":1,"z":2}"#, #"{"a\"":1}"#, #"{"a":1,}"#, #"[1,]"#, #"[tru]"#, #"{"a"}"#, #"[1"#,
            "[\"\u{01}\"]", String(repeating: "[", count: 63) + String(repeating: "]", count: 63),
            String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
        ]
        let notUTF8: [[UInt8]] = [[0x5B, 0x22, 0xFF, 0x22, 0x5D], [0x5B, 0x22, 0xC0, 0x80, 0x22, 0x5D],
            [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], [0x5B, 0x22, 0xC3, 0x22, 0x5D]]
        for body in texts.map({ Array($0.utf8) }) + notUTF8 {
            let line = FixtureLine(exchange: "", routingKey: "", properties: .init(), bodyBytes: body)
            // JSON exactly when the strict parser says so, and then the bytes as they came.
            let parsed = try? EventCodec.decode(JSONValue.self, from: body)
            #expect((line.body != nil) == (parsed != nil && parsed != .null))
            #expect(line.bodyBytes == body)
            try Self.expectWrittenAsBefore(line)
        }
        // As deep as a body may be: JSON, though a line holding it nests too deep to be read back.
        let deepest = Array((String(repeating: "[", count: 64) + String(repeating: "]", count: 64)).utf8)
        let deepLine = FixtureLine(exchange: "", routingKey: "", properties: .init(), bodyBytes: deepest)
        #expect(deepLine.body != nil && deepLine.bodyBytes == deepest)
        #expect(EventCodec.encode(deepLine) == Array(try EventCodec.encoder.encode(deepLine)))
        var set = FixtureLine(exchange: "", routingKey: "r", properties: .init(), bodyBytes: [])
        set.bodyBase64 = nil
        set.body = .object(["b": .string(tricky), "a": .number(1.5), "c": .array([.integer(.min)])])
        try Self.expectWrittenAsBefore(set)
    }
}
