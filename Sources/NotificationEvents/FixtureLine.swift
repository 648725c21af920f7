import Foundation

/// One line of a recorded fixture file (JSON Lines): one AMQP delivery as it was recorded, or one output of a
/// replay. The body is kept as JSON under `body` when it is JSON, else as base64 under `bodyBase64`.
public struct FixtureLine: Sendable, Hashable, Codable {
    /// The AMQP basic properties of the delivery, by their contract names.
    public struct Properties: Sendable, Hashable, Codable {
        public var contentType: String?
        public var contentEncoding: String?
        public var messageId: String?
        public var correlationId: String?
        public var type: String?
        public var appId: String?
        /// Seconds since 1970, as AMQP carries it.
        public var timestamp: Int64?
        /// 1 transient, 2 persistent.
        public var deliveryMode: Int?
        public var headers: [String: JSONValue]?

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
    }

    public var exchange: String
    public var routingKey: String
    public var redelivered: Bool?
    public var properties: Properties
    /// The body, when it is JSON.
    public var body: JSONValue?
    /// The body, when it is not JSON.
    public var bodyBase64: String?

    /// A line for `bytes`, stored as JSON when they parse as JSON and as base64 otherwise.
    public init(exchange: String, routingKey: String, redelivered: Bool? = nil, properties: Properties, bodyBytes bytes: [UInt8]) {
        self.exchange = exchange
        self.routingKey = routingKey
        self.redelivered = redelivered
        self.properties = properties
        if let json = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) {
            self.body = json
        } else {
            self.bodyBase64 = Data(bytes).base64EncodedString()
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
