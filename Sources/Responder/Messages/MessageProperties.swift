import NotificationEvents

/// The properties a message carries besides its body: AMQP's basic properties, by their contract names.
///
/// Transport-agnostic, and the one model of a message's properties above the wire: the broker worker maps AMQP's
/// properties to and from these at its edge, and a fixture line (``FixtureLine``) carries them as they are. Their
/// `Codable` form is what the state stores keep with an inbox entry's outputs.
public struct MessageProperties: Sendable, Hashable, Codable {
    /// Whether the broker keeps a message on disk, as AMQP's delivery-mode.
    public enum DeliveryMode: Int, Sendable, Hashable, Codable {
        case transient = 1
        case persistent = 2
    }

    /// The body's media type, e.g. `application/cloudevents+json`.
    public var contentType: String?
    /// How the body is encoded beyond its media type (e.g. `gzip`); nil for plain bytes.
    public var contentEncoding: String?
    /// The message's id; for outputs, the output event's id, which consumers deduplicate on.
    public var messageId: String?
    /// For outputs, the id of the input event that caused them.
    public var correlationId: String?
    /// The kind of message; for events, their CloudEvents `type`.
    public var type: String?
    /// The application that published the message.
    public var appId: String?
    /// Seconds since 1970, as AMQP carries it.
    public var timestamp: Int64?
    /// Whether the broker keeps the message on disk.
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

extension MessageProperties {
    /// The W3C Trace Context headers (`traceparent`, `tracestate`) of ``headers`` that are valid, as outputs carry
    /// them; empty when `traceparent` is missing or invalid. A tracer continues the producer's trace from these only.
    public var validTraceHeaders: [String: String] {
        TraceContext.propagated(from: headers).compactMapValues { value in
            if case .string(let text) = value { text } else { nil }
        }
    }
}
