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
        if exchange.utf8.count > 255 { return "the exchange name has \(exchange.utf8.count) bytes, over 255" }
        if routingKey.utf8.count > 255 { return "the routing key has \(routingKey.utf8.count) bytes, over 255" }
        if let maxBodySize, bodySize > maxBodySize {
            return "the body has \(bodySize) bytes, over the limit of \(maxBodySize)"
        }
        let shortStrings: [(String, String?)] = [
            ("content-type", properties.contentType), ("content-encoding", properties.contentEncoding),
            ("correlation-id", properties.correlationID), ("reply-to", properties.replyTo),
            ("expiration", properties.expiration), ("message-id", properties.messageID), ("type", properties.type),
            ("user-id", properties.userID), ("app-id", properties.appID),
        ]
        var size = 0
        for case (let name, let value?) in shortStrings {
            let count = value.utf8.count
            if count > 255 { return "the \(name) property has \(count) bytes, over 255" }
            size += 1 + count
        }
        if properties.deliveryMode != nil { size += 1 }
        if properties.priority != nil { size += 1 }
        if properties.timestamp != nil { size += 8 }
        if !properties.headers.isEmpty {
            switch Self.encodedSize(of: properties.headers) {
            case .success(let headers): size += headers
            case .failure(let problem): return problem.text
            }
        }
        let room = frameMax - Self.frameOverhead - Self.contentHeaderFields
        if size > room { return "the properties need \(size) bytes, over the \(room) a frame of \(frameMax) holds" }
        return nil
    }

    private struct Problem: Error {
        var text: String
    }

    /// The bytes a table takes on the wire, or why it cannot go on the wire.
    private static func encodedSize(of table: FieldTable) -> Result<Int, Problem> {
        var size = 4
        for (key, value) in table {
            let count = key.utf8.count
            if count > 255 { return .failure(Problem(text: "a header name has \(count) bytes, over 255")) }
            switch encodedSize(of: value) {
            case .success(let valueSize): size += 1 + count + valueSize
            case .failure(let problem): return .failure(problem)
            }
        }
        return .success(size)
    }

    /// The bytes a value takes on the wire, its type byte included.
    private static func encodedSize(of value: FieldValue) -> Result<Int, Problem> {
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
        case .table(let table):
            switch encodedSize(of: table) {
            case .success(let size): payload = size
            case .failure(let problem): return .failure(problem)
            }
        case .array(let values):
            var size = 4
            for element in values {
                switch encodedSize(of: element) {
                case .success(let elementSize): size += elementSize
                case .failure(let problem): return .failure(problem)
                }
            }
            payload = size
        }
        return .success(1 + payload)
    }
}
