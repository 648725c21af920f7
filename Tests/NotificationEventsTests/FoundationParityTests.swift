import Foundation
@testable import NotificationEvents
import Testing

/// `EventCodec.encode` writes, byte for byte, what Foundation's `JSONEncoder` writes with the contract's settings
/// (`EventCodec.encoder`), and `EventCodec.decodeStored` reads back what it wrote.
@Suite struct FoundationParityTests {
    static func expectSameBytes<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let foundation = Array(try EventCodec.encoder.encode(value))
        let codec = EventCodec.encode(value)
        #expect(
            String(decoding: codec, as: UTF8.self) == String(decoding: foundation, as: UTF8.self),
            sourceLocation: sourceLocation)
        #expect(codec == foundation, sourceLocation: sourceLocation)
    }

    @Test func theContractsDocuments() throws {
        for trigger in Samples.triggers {
            try Self.expectSameBytes(Samples.response(userText: "On my way!", trigger: trigger))
        }
        try Self.expectSameBytes(Samples.update())
        try Self.expectSameBytes(Samples.lifecycle())
        try Self.expectSameBytes(Samples.lifecycle(change: .removedDelivered))
        try Self.expectSameBytes(Samples.command(Dismissal.self))
        try Self.expectSameBytes(Samples.command(Removal.self))
        try Self.expectSameBytes(Samples.categories)
        try Self.expectSameBytes(Samples.deadLetter())
    }

    /// The output event, its data and action sets have writers of their own (`ActionSetUpdateJSON.swift`); they
    /// write Foundation's bytes too, with every optional member present and absent and strings that need escapes.
    /// The same values in other containers go through the generic encoder, which must agree as well.
    @Test(arguments: ResponseOption.allCases)
    func outputEventWriters(responseOption: ResponseOption) throws {
        var event = Samples.update(responseOption: responseOption)
        let tricky = NotificationAction(
            identifier: "quote \" back \\ /", title: "controls \u{0}\u{1F} del \u{7F} é e\u{301} 🔴 \u{2028}",
            options: [.authenticationRequired, .foreground], textInput: .init(buttonTitle: "\n", placeholder: ""))
        let variants: [(inout ActionSetUpdateEvent) -> Void] = [
            { _ in },
            { $0.time = nil; $0.subject = nil; $0.datacontenttype = nil },
            { $0.time = Date(timeIntervalSince1970: 1_795_165_205.125); $0.data.actions = [] },
            { $0.data.actions = [tricky, Samples.replyAction]; $0.data.version = .max; $0.data.categoryIdentifier = "" },
            { $0.source = "/é\"/"; $0.id = "\u{1}" },
        ]
        for change in variants {
            change(&event)
            #expect(EventCodec.encode(event) == Array(try EventCodec.encoder.encode(event)))
            #expect(EventCodec.encode(event.data) == Array(try EventCodec.encoder.encode(event.data)))
            #expect(EventCodec.encode(event.data.actions) == Array(try EventCodec.encoder.encode(event.data.actions)))
            try Self.expectSameBytes([event])
            try Self.expectSameBytes(["data": event.data])
        }
    }

    @Test(arguments: [
        "", "plain", "quote \" backslash \\ slash /", "controls \u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F} del \u{7F}",
        "é e\u{301} 🔴 \u{2028}",
    ])
    func strings(text: String) throws {
        try Self.expectSameBytes([text])
        try Self.expectSameBytes([text: text])
    }

    @Test func numbers() throws {
        try Self.expectSameBytes([1.0, 1.5, -0.0, 0.1, 1e20, 1e-7, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e16, 123.456])
        try Self.expectSameBytes([Float(0.1), Float(1), Float(3.4028235e38)])
        try Self.expectSameBytes([Int64.min, Int64.max, 0, -1])
        try Self.expectSameBytes([UInt64.max])
        try Self.expectSameBytes([Int8.min, Int8.max])
        try Self.expectSameBytes([Decimal(string: "1.50")!, Decimal(string: "-12345678901234567890.125")!])
    }

    @Test func foundationsSpecialTypes() throws {
        try Self.expectSameBytes([Data(), Data([0, 1, 2, 250, 251, 252, 253])])
        try Self.expectSameBytes([URL(string: "https://example.com/a/b?c=d#e")!])
        try Self.expectSameBytes([
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_795_165_205.125),
            Date(timeIntervalSince1970: -62_135_596_800), Date(timeIntervalSince1970: 253_402_300_800),
        ])
    }

    /// Keys sort by their UTF-8 bytes, including keys beyond ASCII and keys that are prefixes of others.
    @Test func keyOrder() throws {
        let keys = ["b", "a", "B", "a b", "ab", "é", "e\u{301}x", "", "aa", "a", "Z", "_", "\u{7F}"]
        try Self.expectSameBytes(Dictionary(keys.map { ($0, 1) }, uniquingKeysWith: +))
        try Self.expectSameBytes(JSONValue.object(Dictionary(keys.map { ($0, .string($0)) }, uniquingKeysWith: { $1 })))
    }

    @Test func containersOfEveryShape() throws {
        try Self.expectSameBytes(Shapes())
        try Self.expectSameBytes([[String: [Int?]]]([["a": [1, nil]], [:]]))
        try Self.expectSameBytes([Optional<Int>.none])
    }

    /// A hand-written `encode(to:)` that encodes nothing, a key twice, nested containers, a `superEncoder` and
    /// a second request for the same container.
    struct Shapes: Encodable {
        enum Key: String, CodingKey {
            case nothing, twice, nested, list, again
        }

        struct Nothing: Encodable {
            func encode(to encoder: any Encoder) throws {}
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(Nothing(), forKey: .nothing)
            try container.encode(1, forKey: .twice)
            try container.encode("second", forKey: .twice)
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: .nested)
            try nested.encode(true, forKey: .list)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(1.5)
            try list.encodeNil()
            var inner = list.nestedContainer(keyedBy: Key.self)
            try inner.encode([1, 2], forKey: .again)
            var superContainer = container.superEncoder().singleValueContainer()
            try superContainer.encode("super")
            var again = encoder.container(keyedBy: Key.self)
            try again.encode(Nothing(), forKey: .again)
        }
    }

    /// A handler's state may hold any Codable value; what the codec stores, it reads back.
    struct State: Codable, Equatable {
        var taps: Int
        var photo: Data
        var link: URL
        var price: Decimal
        var seen: Date
        var ratio: Double?
        var tags: [String: [Int]]
        var deep: JSONValue
    }

    @Test func storedValuesReadBack() throws {
        var deep = JSONValue.null
        for _ in 0..<200 { deep = .array([deep]) }
        let state = State(
            taps: 7, photo: Data([1, 2, 3]), link: URL(string: "https://example.com/p")!,
            price: Decimal(string: "19.99")!, seen: Date(timeIntervalSince1970: 1_795_165_205.5), ratio: nil,
            tags: ["x": [1, 2]], deep: deep)
        let bytes = EventCodec.encode(state)
        #expect(try EventCodec.decodeStored(State.self, from: bytes) == state)
        #expect(try EventCodec.decoder.decode(State.self, from: Data(bytes)) == state)
    }
}
