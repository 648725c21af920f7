/// What librabbitmq and the broker refuse in a publish, checked before anything is written.
///
/// librabbitmq writes basic.publish before it encodes the content header, so a header it cannot encode (a table
/// over the frame, a short string over 255 bytes) would leave a half-written message on the wire and end the
/// connection. Checking first turns such a publish into ``AMQPError/unpublishable(_:)`` for that message alone.
public struct PublishLimits: Sendable, Hashable {
    /// The negotiated frame size: the content header (class, weight, body size, flags and properties) must fit in
    /// one frame.
    public var frameMax: Int
    /// The largest body the broker takes (its `max_message_size`), or `nil` for no check here.
    public var maxBodySize: Int?

    /// Limits for a connection with this frame size and body limit.
    public init(frameMax: Int, maxBodySize: Int? = nil) {
        self.frameMax = frameMax
        self.maxBodySize = maxBodySize
    }

    /// The most bytes a short string carries on the wire (its length is one byte): an exchange name, a routing key,
    /// a header name, and each ``ShortStringProperty``.
    public static let maxShortStringBytes = 255

    /// The smallest frame a broker may negotiate (AMQP 0-9-1's `frame_min_size`).
    public static let smallestFrameMax = 4096

    /// These limits with the smallest frame any broker may negotiate: what a check must use before the
    /// connection's own frame size is known, so that a message it passes is never refused by any broker.
    public var atSmallestFrame: PublishLimits {
        PublishLimits(frameMax: min(frameMax, Self.smallestFrameMax), maxBodySize: maxBodySize)
    }

    /// Bytes a frame spends around its payload (type, channel, size, end marker), and a content header's own
    /// fields (class, weight, body size, property flags).
    @usableFromInline static let frameOverhead = 8
    @usableFromInline static let contentHeaderFields = 14

    /// Why this publish cannot be written, in a sentence that repeats none of its values; `nil` when it can.
    /// Property by property: nothing is allocated unless the properties have headers. Inlinable: every output is
    /// checked, and inlined the check costs less.
    @inlinable
    public func problem(exchange: String, routingKey: String, properties: MessageProperties, bodySize: Int) -> String? {
        let maxShortString = Self.maxShortStringBytes
        if exchange.utf8.count > maxShortString {
            return "the exchange name has \(exchange.utf8.count) bytes, over \(maxShortString)"
        }
        if routingKey.utf8.count > maxShortString {
            return "the routing key has \(routingKey.utf8.count) bytes, over \(maxShortString)"
        }
        if let maxBodySize, bodySize > maxBodySize {
            return "the body has \(bodySize) bytes, over the limit of \(maxBodySize)"
        }
        var size = 0
        // The short strings in the content header's order, so that of two too long the first is named.
        for property in ShortStringProperty.allCases {
            guard let count = properties[shortString: property]?.utf8.count else { continue }
            if count > maxShortString { return "the \(property.name) property has \(count) bytes, over \(maxShortString)" }
            size += 1 + count
        }
        if properties.deliveryMode != nil { size += 1 }
        if properties.priority != nil { size += 1 }
        if properties.timestamp != nil { size += 8 }
        if !properties.headers.isEmpty {
            do throws(Problem) { size += try Self.encodedSize(of: properties.headers) } catch { return error.text }
        }
        let room = frameMax - Self.frameOverhead - Self.contentHeaderFields
        if size > room { return "the properties need \(size) bytes, over the \(room) a frame of \(frameMax) holds" }
        return nil
    }

    @usableFromInline struct Problem: Error {
        @usableFromInline var text: String
    }

    /// The bytes a table takes on the wire, or why it cannot go on the wire.
    @usableFromInline static func encodedSize(of table: FieldTable) throws(Problem) -> Int {
        var size = 4
        for (key, value) in table {
            let count = key.utf8.count
            if count > maxShortStringBytes {
                throw Problem(text: "a header name has \(count) bytes, over \(maxShortStringBytes)")
            }
            size += 1 + count + (try encodedSize(of: value))
        }
        return size
    }

    /// The bytes a value takes on the wire, its type byte included.
    private static func encodedSize(of value: FieldValue) throws(Problem) -> Int {
        let payload: Int
        switch value {
        case .bool, .int8, .uint8: payload = 1
        case .int16, .uint16: payload = 2
        case .int32, .uint32, .float: payload = 4
        case .int64, .double, .timestamp: payload = 8
        case .decimal: payload = 5
        case .void: payload = 0
        case .string(let string): payload = 4 + string.utf8.count
        case .bytes(let bytes), .rawString(let bytes): payload = 4 + bytes.count
        case .table(let table): payload = try encodedSize(of: table)
        case .array(let values):
            var size = 4
            for element in values { size += try encodedSize(of: element) }
            payload = size
        }
        return 1 + payload
    }
}
