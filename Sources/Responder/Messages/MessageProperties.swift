import Messaging
import NotificationEvents

/// The properties a message carries besides its body: AMQP's basic properties, by their contract names.
///
/// The one model of a message's properties above the wire: the broker worker copies AMQP's properties to and from
/// these at its edge, headers as the field table they arrived as (every width, order and repeated name kept, so an
/// input forwarded or recorded is what was delivered), and a fixture line (``FixtureLine``) carries them. The
/// headers' JSON form (``jsonHeaders``) is made only where JSON is wanted: a binary-mode event's attributes, a
/// fixture line, a stored output, a dead letter's failure. Their `Codable` form is what the state stores keep with
/// an inbox entry's outputs.
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
    /// Application headers, in the order they arrived; empty when the message has none.
    public var headers: FieldTable

    /// Properties with the given values; all optional, no headers by default.
    public init(
        contentType: String? = nil, contentEncoding: String? = nil, messageId: String? = nil,
        correlationId: String? = nil, type: String? = nil, appId: String? = nil, timestamp: Int64? = nil,
        deliveryMode: DeliveryMode? = nil, headers: FieldTable = FieldTable()
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
        var valid: [String: String] = [:]
        for (name, value) in TraceContext.propagated(from: headers) {
            if case .string(let text) = value { valid[name] = text }
        }
        return valid
    }

    /// How the message carries its event, as the CloudEvents AMQP binding tells the modes apart.
    var contentMode: EventContentMode {
        EventContentMode.of(contentType: contentType) { headers.contains(named: $0) }
    }
}

/// The stored form: the members by their contract names, headers as their JSON form (``jsonHeaders``), always
/// written. The state stores keep outputs' properties in it, so its bytes stay what they were when headers were
/// JSON values.
extension MessageProperties {
    private enum CodingKeys: String, CodingKey {
        case contentType, contentEncoding, messageId, correlationId, type, appId, timestamp, deliveryMode, headers
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            contentType: try container.decodeIfPresent(String.self, forKey: .contentType),
            contentEncoding: try container.decodeIfPresent(String.self, forKey: .contentEncoding),
            messageId: try container.decodeIfPresent(String.self, forKey: .messageId),
            correlationId: try container.decodeIfPresent(String.self, forKey: .correlationId),
            type: try container.decodeIfPresent(String.self, forKey: .type),
            appId: try container.decodeIfPresent(String.self, forKey: .appId),
            timestamp: try container.decodeIfPresent(Int64.self, forKey: .timestamp),
            deliveryMode: try container.decodeIfPresent(DeliveryMode.self, forKey: .deliveryMode),
            headers: FieldTable(json: try container.decode([String: JSONValue].self, forKey: .headers)))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(contentType, forKey: .contentType)
        try container.encodeIfPresent(contentEncoding, forKey: .contentEncoding)
        try container.encodeIfPresent(messageId, forKey: .messageId)
        try container.encodeIfPresent(correlationId, forKey: .correlationId)
        try container.encodeIfPresent(type, forKey: .type)
        try container.encodeIfPresent(appId, forKey: .appId)
        try container.encodeIfPresent(timestamp, forKey: .timestamp)
        try container.encodeIfPresent(deliveryMode, forKey: .deliveryMode)
        try container.encode(jsonHeaders, forKey: .headers)
    }
}
