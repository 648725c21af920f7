import AMQP
import Responder
import ResponderIntake
import NotificationEvents

/// A delivery as fuzzer bytes: the properties a producer controls, the header table in AMQP's wire format (so
/// every field type, nesting and invalid UTF-8 can come up), the routing key and the body.
///
/// Layout: a byte of property flags; an 8-byte timestamp; 6 short strings (content type, content encoding,
/// message id, correlation id, type, app id), each a length byte and its bytes; the routing key the same way;
/// a 2-byte big-endian length and that many bytes of header table (without its own 4-byte length); the rest is the
/// body. Missing bytes read as zero, so every input is some delivery.
public struct IntakeInput: Sendable {
    /// The delivery the bytes describe.
    public var delivery: AMQPDelivery

    /// The delivery `bytes` describe.
    public init(_ bytes: [UInt8]) {
        var reader = Reader(bytes: bytes[...])
        let flags = reader.byte()
        let timestamp = reader.uint64()
        var properties = MessageProperties()
        let strings = (0..<6).map { _ in reader.shortString() }
        func present(_ bit: Int, _ value: String) -> String? { flags & (1 << bit) != 0 ? value : nil }
        properties.contentType = present(0, strings[0])
        properties.contentEncoding = present(1, strings[1])
        properties.messageID = present(2, strings[2])
        properties.correlationID = present(3, strings[3])
        properties.type = present(4, strings[4])
        properties.appID = present(5, strings[5])
        if flags & (1 << 6) != 0 { properties.timestamp = timestamp }
        if flags & (1 << 7) != 0 { properties.deliveryMode = .persistent }
        let routingKey = reader.shortString()
        properties.headers = Self.headers(wire: reader.bytes(count: Int(reader.byte()) << 8 | Int(reader.byte())))
        delivery = AMQPDelivery(
            body: Array(reader.rest), properties: properties, exchange: "notifications.responses", routingKey: routingKey,
            deliveryTag: 1, consumerTag: "fuzz")
    }

    /// The bytes of a delivery with these parts, the inverse of ``init(_:)`` for seeds and regression inputs;
    /// `headers` go in their wire form, which must fit the 65,535 bytes the layout gives them.
    public static func bytes(
        contentType: String? = nil, contentEncoding: String? = nil, messageID: String? = nil, timestamp: UInt64? = nil,
        routingKey: String = "red", headers: FieldTable = [:], body: [UInt8]
    ) -> [UInt8] {
        var flags: UInt8 = 1 << 7
        if contentType != nil { flags |= 1 }
        if contentEncoding != nil { flags |= 1 << 1 }
        if messageID != nil { flags |= 1 << 2 }
        if timestamp != nil { flags |= 1 << 6 }
        var bytes = [flags] + withUnsafeBytes(of: (timestamp ?? 0).bigEndian) { Array($0) }
        for text in [contentType, contentEncoding, messageID, nil, nil, nil, routingKey] {
            let utf8 = Array((text ?? "").utf8.prefix(255))
            bytes += [UInt8(utf8.count)] + utf8
        }
        let header = (headers.wire(limit: Int(UInt16.max) + 4) ?? [0, 0, 0, 0]).dropFirst(4)
        bytes += [UInt8(header.count >> 8), UInt8(header.count & 0xFF)] + header + body
        return bytes
    }

    /// The bytes of a recorded delivery, for seeds: its properties, headers, routing key and body.
    public static func bytes(_ line: FixtureLine) -> [UInt8] {
        let properties = line.properties
        return bytes(
            contentType: properties.contentType, contentEncoding: properties.contentEncoding,
            messageID: properties.messageID, timestamp: properties.timestamp, routingKey: line.routingKey,
            headers: properties.headers, body: line.bodyBytes)
    }

    /// The bytes of a recorded structured event sent in binary content mode instead, for seeds: its attributes as
    /// `cloudEvents_` headers (beside the recorded ones), `application/json`, its `data` as the body; `nil` when
    /// the body is not a JSON object with `data`.
    public static func binaryModeBytes(_ line: FixtureLine) -> [UInt8]? {
        guard let event = try? EventCodec.decode([String: JSONValue].self, from: line.bodyBytes), let data = event["data"]
        else { return nil }
        var properties = line.properties
        let attributes = event.filter { $0.key != "data" && $0.key != "datacontenttype" }
            .map { (BinaryModeHeaders.prefix + $0.key, FieldValue($0.value)) }
        properties.headers = FieldTable(properties.headers.map { ($0.key, $0.value) } + attributes)
        return bytes(
            contentType: EventContentType.json, contentEncoding: properties.contentEncoding,
            messageID: properties.messageID, timestamp: properties.timestamp, routingKey: line.routingKey,
            headers: properties.headers, body: EventCodec.encode(data))
    }

    /// The table librabbitmq decodes from `wire` (a table's entries, without its length), or none when they are
    /// not a table.
    private static func headers(wire: ArraySlice<UInt8>) -> FieldTable {
        FieldTable(wire: withUnsafeBytes(of: UInt32(wire.count).bigEndian) { Array($0) } + wire) ?? [:]
    }

    private struct Reader {
        var bytes: ArraySlice<UInt8>

        mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

        mutating func uint64() -> UInt64 { (0..<8).reduce(0) { value, _ in value << 8 | UInt64(byte()) } }

        mutating func bytes(count: Int) -> ArraySlice<UInt8> {
            defer { bytes = bytes.dropFirst(count) }
            return bytes.prefix(count)
        }

        mutating func shortString() -> String { String(decoding: bytes(count: Int(byte())), as: UTF8.self) }

        var rest: ArraySlice<UInt8> { bytes }
    }
}
