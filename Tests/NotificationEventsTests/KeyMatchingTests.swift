import Foundation
import NotificationEvents
import Testing

/// Keys are matched as Swift compares strings, whatever the spelling: escapes, canonically equivalent forms, and
/// objects large enough to be looked up through an index.
@Suite struct KeyMatchingTests {
    struct Accented: Decodable, Equatable {
        var café: Int
        var K: Int
    }

    @Test func anEscapedKeyIsTheKeyItSpells() throws {
        let text = String(decoding: EventCodec.encode(Samples.response()), as: UTF8.self)
        let escaped = text.replacingOccurrences(of: #""specversion""#, with: #""\u0073pec\u0076ersion""#)
        #expect(escaped != text)
        #expect(try EventCodec.decodeResponseEvent(Array(escaped.utf8)) == Samples.response())
    }

    /// "e" with a combining accent is "é"; the Kelvin sign is "K".
    @Test func canonicallyEquivalentKeysMatch() throws {
        let decoded = try EventCodec.decode(Accented.self, from: Array(#"{"cafe\u0301":1,"\u212A":2}"#.utf8))
        #expect(decoded == Accented(café: 1, K: 2))
    }

    @Test func aLargeObjectIsReadWhole() throws {
        let components = Dictionary(uniqueKeysWithValues: (0..<100).map { ("component-\($0)", $0) })
        let event = Samples.response(trigger: .calendar(dateComponents: components, repeats: false))
        #expect(try EventCodec.decodeResponseEvent(EventCodec.encode(event)) == event)
    }

    @Test(arguments: [("\"key-7\"", "key-7"), (#""caf\u00e9""#, "cafe\u{301}")])
    func aDuplicateKeyInALargeObjectIsFound(repeated: String, path: String) {
        var members = (0..<40).map { "\"key-\($0)\":\($0)" }
        members.insert(#""cafe\u0301":1"#, at: 20)
        members.append("\(repeated):0")
        let document = "{" + members.joined(separator: ",") + "}"
        #expect(throws: EventDecodingError.invalidField(path: path, problem: "duplicate key")) {
            try EventCodec.decode(JSONValue.self, from: Array(document.utf8))
        }
    }

    @Test func aLargeObjectWithoutDuplicatesIsKept() throws {
        let members = (0..<40).map { "\"key-\($0)\":\($0)" }
        let value = try EventCodec.decode(JSONValue.self, from: Array(("{" + members.joined(separator: ",") + "}").utf8))
        #expect(value == .object(Dictionary(uniqueKeysWithValues: (0..<40).map { ("key-\($0)", .integer(Int64($0))) })))
    }
}
