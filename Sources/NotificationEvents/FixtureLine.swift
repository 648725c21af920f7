import Foundation

/// One line of a recorded fixture file (JSON Lines): one AMQP delivery as it was recorded, or one output of a
/// replay. The body is kept as JSON under `body` when it is JSON, else as base64 under `bodyBase64`.
public struct FixtureLine: Sendable, Hashable, Codable {
    /// The AMQP basic properties of the delivery, by their contract names.
    public struct Properties: Sendable, Hashable, Codable {
        /// The AMQP content-type, e.g. ``EventContentType/cloudEvents``.
        public var contentType: String?
        /// The AMQP content-encoding.
        public var contentEncoding: String?
        /// For events, the event's id.
        public var messageId: String?
        /// For outputs, the id of the input event.
        public var correlationId: String?
        /// The AMQP type property; for events, the event type.
        public var type: String?
        /// The publishing application.
        public var appId: String?
        /// Seconds since 1970, as AMQP carries it; not negative.
        public var timestamp: Int64?
        /// 1 transient, 2 persistent.
        public var deliveryMode: Int?
        /// The AMQP headers, e.g. a dead-lettered message's ``DeadLetterInfo/headers``.
        public var headers: [String: JSONValue]?

        /// Recorded properties; absent ones stay nil.
        public init(
            contentType: String? = nil, contentEncoding: String? = nil, messageId: String? = nil,
            correlationId: String? = nil, type: String? = nil, appId: String? = nil, timestamp: Int64? = nil,
            deliveryMode: Int? = nil, headers: [String: JSONValue]? = nil
        ) {
            self.contentType = contentType
            self.contentEncoding = contentEncoding
            self.messageId = messageId
            self.correlationId = correlationId
            self.type = type
            self.appId = appId
            self.timestamp = timestamp
            self.deliveryMode = deliveryMode
            self.headers = headers
        }

        private enum CodingKeys: String, CodingKey {
            case contentType, contentEncoding, messageId, correlationId, type, appId, timestamp, deliveryMode, headers
        }

        /// Reads recorded properties, all optional; a timestamp must not be negative and a delivery mode is 1 or 2.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            contentType = try container.decodeIfPresent(String.self, forKey: .contentType)
            contentEncoding = try container.decodeIfPresent(String.self, forKey: .contentEncoding)
            messageId = try container.decodeIfPresent(String.self, forKey: .messageId)
            correlationId = try container.decodeIfPresent(String.self, forKey: .correlationId)
            type = try container.decodeIfPresent(String.self, forKey: .type)
            appId = try container.decodeIfPresent(String.self, forKey: .appId)
            timestamp = try container.decodeIfPresent(Int64.self, forKey: .timestamp, atLeast: 0)
            deliveryMode = try container.decodeIfPresent(Int.self, forKey: .deliveryMode)
            if let deliveryMode, deliveryMode != 1, deliveryMode != 2 {
                throw container.violation(.deliveryMode, "expected 1 or 2")
            }
            headers = try container.decodeIfPresent([String: JSONValue].self, forKey: .headers)
        }
    }

    /// The exchange the message was published to; empty for the default exchange.
    public var exchange: String
    /// The routing key the message was published with.
    public var routingKey: String
    /// Whether the broker had delivered the message before.
    public var redelivered: Bool?
    /// The AMQP basic properties.
    public var properties: Properties
    /// The body, when it is JSON by the contract's rules; exactly one of `body` and `bodyBase64` is set.
    public var body: JSONValue?
    /// The body, when it is not JSON by the contract's rules (or is JSON `null`).
    public var bodyBase64: String?

    /// A line for `bytes`, stored as JSON when they are JSON by the contract's rules and as base64 otherwise.
    ///
    /// A body the contract refuses as JSON (a duplicate key, `NaN`, …) is kept as base64, so replaying it
    /// refuses it again in the same way; JSON `null` is kept as base64 too, since `"body": null` reads as absent.
    public init(exchange: String, routingKey: String, redelivered: Bool? = nil, properties: Properties, bodyBytes bytes: [UInt8]) {
        self.exchange = exchange
        self.routingKey = routingKey
        self.redelivered = redelivered
        self.properties = properties
        if let json = try? StrictJSONParser.parse(bytes), json != .null {
            self.body = json
        } else {
            self.bodyBase64 = Data(bytes).base64EncodedString()
        }
    }

    private enum CodingKeys: String, CodingKey {
        case exchange, routingKey, redelivered, properties, body, bodyBase64
    }

    /// Reads a line; exactly one of `body` and `bodyBase64` must be set, and `bodyBase64` must be base64 with
    /// padding.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        exchange = try container.decode(String.self, forKey: .exchange)
        routingKey = try container.decode(String.self, forKey: .routingKey)
        redelivered = try container.decodeIfPresent(Bool.self, forKey: .redelivered)
        properties = try container.decode(Properties.self, forKey: .properties)
        body = try container.decodeIfPresent(JSONValue.self, forKey: .body)
        bodyBase64 = try container.decodeIfPresent(String.self, forKey: .bodyBase64)
        switch (body, bodyBase64) {
        case (nil, nil): throw container.violation(.body, "missing, and no bodyBase64")
        case (.some, .some): throw container.violation(.bodyBase64, "not allowed together with body")
        case (nil, .some(let base64)) where Data(base64Encoded: base64) == nil:
            throw container.violation(.bodyBase64, "expected base64")
        default: break
        }
    }

    /// The body's bytes: the JSON body re-encoded with sorted keys, or the decoded base64.
    ///
    /// A JSON body is re-encoded, so its bytes may differ in spacing and key order from the recorded ones.
    public var bodyBytes: [UInt8] {
        if let body { return EventCodec.encode(body) }
        return bodyBase64.flatMap { Data(base64Encoded: $0) }.map { Array($0) } ?? []
    }
}
