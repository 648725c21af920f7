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

    /// The smallest frame a broker may negotiate (AMQP 0-9-1's `frame_min_size`).
    public static let smallestFrameMax = 4096

    /// These limits with the smallest frame any broker may negotiate: what a check must use before the
    /// connection's own frame size is known, so that a message it passes is never refused by any broker.
    public var atSmallestFrame: PublishLimits {
        PublishLimits(frameMax: min(frameMax, Self.smallestFrameMax), maxBodySize: maxBodySize)
    }

    /// Bytes a frame spends around its payload (type, channel, size, end marker), and a content header's own
    /// fields (class, weight, body size, property flags).
    private static let frameOverhead = 8
    private static let contentHeaderFields = 14

    /// Why this publish cannot be written, in a sentence that repeats none of its values; `nil` when it can.
    public func problem(exchange: String, routingKey: String, properties: BasicProperties, bodySize: Int) -> String? {
        problem(
            exchange: exchange, routingKey: routingKey, bodySize: bodySize, contentType: properties.contentType,
            contentEncoding: properties.contentEncoding, correlationID: properties.correlationID,
            replyTo: properties.replyTo, expiration: properties.expiration, messageID: properties.messageID,
            type: properties.type, userID: properties.userID, appID: properties.appID,
            deliveryMode: properties.deliveryMode, priority: properties.priority, timestamp: properties.timestamp,
            headers: properties.headers)
    }

    /// ``problem(exchange:routingKey:properties:bodySize:)`` for a publish whose properties are given one by one:
    /// for a caller that keeps the properties in a model of its own and should not build ``BasicProperties`` only
    /// to measure them. The same check, property by property: nothing is allocated unless `headers` has entries.
    public func problem(
        exchange: String, routingKey: String, bodySize: Int, contentType: String? = nil,
        contentEncoding: String? = nil, correlationID: String? = nil, replyTo: String? = nil,
        expiration: String? = nil, messageID: String? = nil, type: String? = nil, userID: String? = nil,
        appID: String? = nil, deliveryMode: BasicProperties.DeliveryMode? = nil, priority: UInt8? = nil,
        timestamp: UInt64? = nil, headers: FieldTable = FieldTable()
    ) -> String? {
        if exchange.utf8.count > 255 { return "the exchange name has \(exchange.utf8.count) bytes, over 255" }
        if routingKey.utf8.count > 255 { return "the routing key has \(routingKey.utf8.count) bytes, over 255" }
        if let maxBodySize, bodySize > maxBodySize {
            return "the body has \(bodySize) bytes, over the limit of \(maxBodySize)"
        }
        do throws(Problem) {
            // The short strings in the content header's order, so that of two too long the first is named.
            var size = try Self.shortStringSize("content-type", contentType)
            size += try Self.shortStringSize("content-encoding", contentEncoding)
            size += try Self.shortStringSize("correlation-id", correlationID)
            size += try Self.shortStringSize("reply-to", replyTo)
            size += try Self.shortStringSize("expiration", expiration)
            size += try Self.shortStringSize("message-id", messageID)
            size += try Self.shortStringSize("type", type)
            size += try Self.shortStringSize("user-id", userID)
            size += try Self.shortStringSize("app-id", appID)
            if deliveryMode != nil { size += 1 }
            if priority != nil { size += 1 }
            if timestamp != nil { size += 8 }
            if !headers.isEmpty { size += try Self.encodedSize(of: headers) }
            let room = frameMax - Self.frameOverhead - Self.contentHeaderFields
            if size > room { return "the properties need \(size) bytes, over the \(room) a frame of \(frameMax) holds" }
            return nil
        } catch {
            return error.text
        }
    }

    private struct Problem: Error {
        var text: String
    }

    /// The bytes a short-string property takes on the wire (its length byte included), 0 when it is not sent.
    private static func shortStringSize(_ name: StaticString, _ value: String?) throws(Problem) -> Int {
        guard let value else { return 0 }
        let count = value.utf8.count
        if count > 255 { throw Problem(text: "the \(name) property has \(count) bytes, over 255") }
        return 1 + count
    }

    /// The bytes a table takes on the wire, or why it cannot go on the wire.
    private static func encodedSize(of table: FieldTable) throws(Problem) -> Int {
        var size = 4
        for (key, value) in table {
            let count = key.utf8.count
            if count > 255 { throw Problem(text: "a header name has \(count) bytes, over 255") }
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
