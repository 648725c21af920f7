import Foundation
import Messaging
import NotificationEvents

// Replay reads every line of a fixture, so a line is read here directly from the parser's tape in one pass over its
// members, rather than through `Decodable` with a keyed lookup for each (Benchmarks/PROFILE.md), and each key is
// compared by its bytes (a `String` of each cost about 250 instructions, 5,000 a line). The reader only
// accepts: a line it does not fully understand (a key with escapes or bytes beyond ASCII, a null or a value of
// another type, an integer written as a float) or that breaks a rule gives nil, and the strict reader (the contract's
// decoder on `FixtureLine.init(from:)`) judges it, so every refusal keeps the strict reader's reason and field path.
// FixtureLineReadingTests holds the two to the same line on every fixture and on lines bent in each member.
// Kept while it pays: Benchmarks/thresholds.json's replay row "redgreen memory" (131,200 instructions an event) fails without it.

extension EventCodec {
    /// Decodes one line of a fixture file.
    ///
    /// A plain line is read directly (FixtureLine+Reading.swift); anything that reader does not accept is judged by
    /// the strict reader, so refusals and their field paths are the strict reader's.
    public static func decodeFixtureLine(_ body: some DataProtocol) throws(EventDecodingError) -> FixtureLine {
        let tape = try StrictJSONParser.parse(Array(body))
        if let line = FixtureLine.directlyRead(from: tape) { return line }
        return try decode(FixtureLine.self, from: tape)
    }

    /// `decodeFixtureLine(_:)` by the strict reader alone, which the direct reader must agree with.
    package static func decodeFixtureLineStrictly(_ body: some DataProtocol) throws(EventDecodingError) -> FixtureLine {
        try decode(FixtureLine.self, from: StrictJSONParser.parse(Array(body)))
    }
}

extension FixtureLine {
    /// The line `tape` holds when it is a plain one; nil to let the strict reader judge it.
    static func directlyRead(from tape: JSONTape) -> FixtureLine? {
        guard tape.nodes[0].kind == .object else { return nil }
        var exchange: String?
        var routingKey: String?
        var redelivered: Bool?
        var properties: MessageProperties?
        var body: RawJSON?
        var bodyBase64: String?
        var key = 1
        while key < tape.nodes[0].next {
            guard !tape.nodes[key].needsDecoding else { return nil }
            let value = key + 1
            let kind = tape.nodes[value].kind
            func named(_ name: StaticString) -> Bool { tape.plainKey(at: key, is: name) }
            if named("exchange") {
                guard kind == .string else { return nil }
                exchange = tape.string(at: value)
            } else if named("routingKey") {
                guard kind == .string else { return nil }
                routingKey = tape.string(at: value)
            } else if named("redelivered") {
                guard kind == .true || kind == .false else { return nil }
                redelivered = kind == .true
            } else if named("properties") {
                guard let read = RecordedProperties.directlyRead(from: tape, at: value) else { return nil }
                properties = read
            } else if named("body") {
                guard kind != .null else { return nil }
                body = RawJSON(tape, node: value)
            } else if named("bodyBase64") {
                guard kind == .string else { return nil }
                bodyBase64 = tape.string(at: value)
            }
            // Unknown members are allowed, as the strict reader allows them.
            key = tape.nodes[value].next
        }
        guard let exchange, let routingKey, let properties, (body == nil) != (bodyBase64 == nil) else { return nil }
        if let bodyBase64, Data(base64Encoded: bodyBase64) == nil { return nil }
        return FixtureLine(
            exchange: exchange, routingKey: routingKey, redelivered: redelivered, properties: properties,
            bodyJSON: body, bodyBase64: bodyBase64)
    }
}

extension RecordedProperties {
    /// The properties at `node` when they are plain ones; nil to let the strict reader judge them.
    static func directlyRead(from tape: JSONTape, at node: Int) -> MessageProperties? {
        guard tape.nodes[node].kind == .object else { return nil }
        var properties = MessageProperties()
        var key = node + 1
        while key < tape.nodes[node].next {
            guard !tape.nodes[key].needsDecoding else { return nil }
            let value = key + 1
            let kind = tape.nodes[value].kind
            func named(_ name: StaticString) -> Bool { tape.plainKey(at: key, is: name) }
            /// Reads a string member's value into `field`; false when the value is not a string.
            func string(into field: inout String?) -> Bool {
                guard kind == .string else { return false }
                field = tape.string(at: value)
                return true
            }
            if named("contentType") {
                guard string(into: &properties.contentType) else { return nil }
            } else if named("contentEncoding") {
                guard string(into: &properties.contentEncoding) else { return nil }
            } else if named("messageId") {
                guard string(into: &properties.messageID) else { return nil }
            } else if named("correlationId") {
                guard string(into: &properties.correlationID) else { return nil }
            } else if named("type") {
                guard string(into: &properties.type) else { return nil }
            } else if named("appId") {
                guard string(into: &properties.appID) else { return nil }
            } else if named("timestamp") {
                guard kind == .integer, tape.integer(at: value) >= 0 else { return nil }
                properties.timestamp = UInt64(tape.integer(at: value))
            } else if named("deliveryMode") {
                guard kind == .integer, (1...2).contains(tape.integer(at: value)) else { return nil }
                properties.deliveryMode = MessageProperties.DeliveryMode(rawValue: UInt8(tape.integer(at: value)))
            } else if named("headers") {
                guard kind == .object else { return nil }
                properties.headers = FieldTable(json: tape.members(at: value))
            }
            key = tape.nodes[value].next
        }
        return properties
    }
}
