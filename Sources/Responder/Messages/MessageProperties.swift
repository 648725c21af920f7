import NotificationEvents

/// The properties a message carries besides its body: AMQP's basic properties, by their contract names.
///
/// Transport-agnostic: the broker worker maps AMQP's properties to and from these, replay maps fixture lines.
public struct MessageProperties: Sendable, Hashable, Codable {
    /// Whether the broker keeps a message on disk, as AMQP's delivery-mode.
    public enum DeliveryMode: Int, Sendable, Hashable, Codable {
        case transient = 1
        case persistent = 2
    }

    public var contentType: String?
    public var contentEncoding: String?
    public var messageId: String?
    public var correlationId: String?
    public var type: String?
    public var appId: String?
    /// Seconds since 1970, as AMQP carries it.
    public var timestamp: Int64?
    public var deliveryMode: DeliveryMode?
    /// Application headers; empty when the message has none.
    public var headers: [String: JSONValue]

    /// Properties with the given values; all optional, no headers by default.
    public init(
        contentType: String? = nil, contentEncoding: String? = nil, messageId: String? = nil,
        correlationId: String? = nil, type: String? = nil, appId: String? = nil, timestamp: Int64? = nil,
        deliveryMode: DeliveryMode? = nil, headers: [String: JSONValue] = [:]
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
