import Foundation
import NotificationEvents

// Replay reads every line of a fixture, so a line is read here directly from the parser's tape in one pass over its
// members, rather than through `Decodable` with a keyed lookup for each (Benchmarks/PROFILE.md). The reader only
// accepts: a line it does not fully understand (a key with escapes or bytes beyond ASCII, a null or a value of
// another type, an integer written as a float) or that breaks a rule gives nil, and the strict reader (the contract's
// decoder on `FixtureLine.init(from:)`) judges it, so every refusal keeps the strict reader's reason and field path.
// FixtureLineReadingTests holds the two to the same line on every fixture and on lines bent in each member.

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
            let value = key + 1
            let kind = tape.nodes[value].kind
            switch tape.plainKey(at: key) {
            case "exchange" where kind == .string: exchange = tape.string(at: value)
            case "routingKey" where kind == .string: routingKey = tape.string(at: value)
            case "redelivered" where kind == .true || kind == .false: redelivered = kind == .true
            case "properties":
                guard let read = RecordedProperties.directlyRead(from: tape, at: value) else { return nil }
                properties = read
            case "body" where kind != .null: body = RawJSON(tape, node: value)
            case "bodyBase64" where kind == .string: bodyBase64 = tape.string(at: value)
            case "exchange", "routingKey", "redelivered", "body", "bodyBase64", nil: return nil
            default: break  // unknown members are allowed, as the strict reader allows them
            }
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
            let value = key + 1
            let kind = tape.nodes[value].kind
            switch tape.plainKey(at: key) {
            case "contentType" where kind == .string: properties.contentType = tape.string(at: value)
            case "contentEncoding" where kind == .string: properties.contentEncoding = tape.string(at: value)
            case "messageId" where kind == .string: properties.messageId = tape.string(at: value)
            case "correlationId" where kind == .string: properties.correlationId = tape.string(at: value)
            case "type" where kind == .string: properties.type = tape.string(at: value)
            case "appId" where kind == .string: properties.appId = tape.string(at: value)
            case "timestamp" where kind == .integer && tape.integer(at: value) >= 0:
                properties.timestamp = tape.integer(at: value)
            case "deliveryMode" where kind == .integer && (1...2).contains(tape.integer(at: value)):
                properties.deliveryMode = MessageProperties.DeliveryMode(rawValue: Int(tape.integer(at: value)))
            case "headers" where kind == .object: properties.headers = tape.members(at: value)
            case "contentType", "contentEncoding", "messageId", "correlationId", "type", "appId", "timestamp",
                "deliveryMode", "headers", nil:
                return nil
            default: break
            }
            key = tape.nodes[value].next
        }
        return properties
    }
}

extension JSONTape {
    /// The key at `index` when it is plain ASCII without escapes, so its bytes are its text; nil otherwise.
    fileprivate func plainKey(at index: Int) -> String? {
        let key = nodes[index]
        guard !key.needsDecoding else { return nil }
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[key.textRange]), as: UTF8.self)
        }
    }
}
