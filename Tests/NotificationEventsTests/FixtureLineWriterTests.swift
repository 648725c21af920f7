import Foundation
import NotificationEvents
import Testing

/// A fixture line has a writer of its own (FixtureLineJSON.swift): it writes the bytes of the generic contract
/// encoder, which a line inside an array still goes through, and of Foundation's `JSONEncoder`.
@Suite struct FixtureLineWriterTests {
    static let fixtures = ContractFiles.schemas.deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func expectWrittenAsBefore(_ line: FixtureLine, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let direct = EventCodec.encode(line)
        let generic = Array(EventCodec.encode([line]).dropFirst().dropLast())
        #expect(String(decoding: direct, as: UTF8.self) == String(decoding: generic, as: UTF8.self), sourceLocation: sourceLocation)
        #expect(direct == Array(try EventCodec.encoder.encode(line)), sourceLocation: sourceLocation)
        // Read back, a line writes the same bytes again (its values may differ: `1E2` reads back as the integer 100).
        #expect(EventCodec.encode(try EventCodec.decodeFixtureLine(direct)) == direct, sourceLocation: sourceLocation)
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
        let properties: [FixtureLine.Properties] = [
            .init(),
            Samples.recordedProperties,
            .init(
                contentType: tricky, contentEncoding: tricky, messageId: tricky, correlationId: tricky, type: tricky,
                appId: tricky, timestamp: 0, deliveryMode: 1,
                headers: [tricky: .string(tricky), "a": .array([.null, .bool(false), .number(-2.5)]), "": .object([:])]),
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
        var set = FixtureLine(exchange: "", routingKey: "r", properties: .init(), bodyBytes: [])
        set.bodyBase64 = nil
        set.body = .object(["b": .string(tricky), "a": .number(1.5), "c": .array([.integer(.min)])])
        try Self.expectWrittenAsBefore(set)
    }
}
