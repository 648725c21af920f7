import NotificationEvents
import Testing

@Suite struct FixtureLineTests {
    static func line(_ body: [UInt8]) -> FixtureLine {
        FixtureLine(exchange: "notifications", routingKey: "notification.response", properties: .init(), bodyBytes: body)
    }

    @Test func aJSONBodyIsKeptAsJSON() {
        let line = Self.line(Array(#"{"b":1, "a":[true]}"#.utf8))
        #expect(line.body == .object(["a": .array([.bool(true)]), "b": .integer(1)]))
        #expect(line.bodyBase64 == nil)
        #expect(line.bodyBytes == Array(#"{"a":[true],"b":1}"#.utf8))
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
}
