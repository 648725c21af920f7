import NotificationEvents
import Responder
import Testing

@Suite struct FixtureLineTests {
    static func line(_ body: [UInt8]) -> FixtureLine {
        FixtureLine(exchange: "notifications", routingKey: "notification.response", properties: .init(), bodyBytes: body)
    }

    /// The recorded bytes replay as they were; the fixture file holds the body in the stable form.
    @Test func aJSONBodyIsKeptAsJSONWithItsRecordedBytes() throws {
        let line = Self.line(Array(" {\"b\":1, \"a\":[true]}\n".utf8))
        #expect(line.body == .object(["a": .array([.bool(true)]), "b": .integer(1)]))
        #expect(line.bodyBase64 == nil)
        #expect(line.bodyBytes == Array(" {\"b\":1, \"a\":[true]}\n".utf8))
        let written = EventCodec.encode(line)
        #expect(String(decoding: written, as: UTF8.self).contains(#""body":{"a":[true],"b":1}"#))
        let read = try EventCodec.decodeFixtureLine(written)
        #expect(read == line)
        #expect(read.bodyBytes == Array(#"{"a":[true],"b":1}"#.utf8))
    }

    @Test func aBodySetAsAValueIsWrittenInTheStableForm() {
        var line = Self.line(Array("not json".utf8))
        line.bodyBase64 = nil
        line.body = .object(["b": .string("é"), "a": .number(1.5)])
        #expect(line.bodyBytes == Array(#"{"a":1.5,"b":"é"}"#.utf8))
    }

    /// A body the contract refuses must replay as the same bytes, so it is refused again for the same reason.
    @Test(arguments: [
        #"{"a":1,"a":2}"#, #"{"a":NaN}"#, "not json", "null", String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
    ])
    func aBodyTheContractDoesNotReadAsJSONIsKeptByteForByte(body: String) {
        let line = Self.line(Array(body.utf8))
        #expect(line.body == nil)
        #expect(line.bodyBase64 != nil)
        #expect(line.bodyBytes == Array(body.utf8))
    }

    @Test func invalidUTF8IsKeptByteForByte() {
        let bytes: [UInt8] = [0x7B, 0xFF, 0x7D]
        #expect(Self.line(bytes).bodyBytes == bytes)
    }

    @Test(arguments: [
        Array(#"{"specversion":"1.0"}"#.utf8), Array("not json".utf8), [0xFF, 0x00, 0x7B], [],
        Array(#"{"a":1,"a":2}"#.utf8), Array("null".utf8),
    ])
    func fixtureLineWithEachKindOfBody(body: [UInt8]) throws {
        let line = FixtureLine(
            exchange: "notifications", routingKey: "notification.response", redelivered: true,
            properties: FixtureLineWriterTests.recordedProperties, bodyBytes: body)
        #expect(try EventCodec.decodeFixtureLine(EventCodec.encode(line)) == line)
    }

    @Test func fixtureLineWithNoProperties() throws {
        let line = FixtureLine(exchange: "", routingKey: "q", properties: .init(), bodyBytes: Array("{}".utf8))
        #expect(try EventCodec.decodeFixtureLine(EventCodec.encode(line)) == line)
    }
}
