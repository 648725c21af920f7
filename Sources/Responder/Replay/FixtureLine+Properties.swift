import Messaging
import NotificationEvents

/// A fixture line's `properties` member as the file holds it: ``MessageProperties`` by their contract names, read
/// strictly (a timestamp not negative, a delivery mode 1 or 2) and written with `headers` left out when there are
/// none, so a recorded line is written back as it was read.
///
/// Why not `MessageProperties`' own `Codable`: the state stores keep outputs' properties with it (headers always
/// written, even when empty), and their bytes must not change with the replay file's.
struct RecordedProperties: Codable {
    var properties: MessageProperties

    init(_ properties: MessageProperties) {
        self.properties = properties
    }

    private enum CodingKeys: String, CodingKey {
        case contentType, contentEncoding, messageId, correlationId, type, appId, timestamp, deliveryMode, headers
    }

    /// Reads the members in the order the contract's reader always has, so a line breaking two rules is refused
    /// for the same one.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        properties = MessageProperties()
        properties.contentType = try container.decodeIfPresent(String.self, forKey: .contentType)
        properties.contentEncoding = try container.decodeIfPresent(String.self, forKey: .contentEncoding)
        properties.messageId = try container.decodeIfPresent(String.self, forKey: .messageId)
        properties.correlationId = try container.decodeIfPresent(String.self, forKey: .correlationId)
        properties.type = try container.decodeIfPresent(String.self, forKey: .type)
        properties.appId = try container.decodeIfPresent(String.self, forKey: .appId)
        properties.timestamp = try container.decodeIfPresent(Int64.self, forKey: .timestamp, atLeast: 0)
        if let mode = try container.decodeIfPresent(Int.self, forKey: .deliveryMode) {
            guard let deliveryMode = MessageProperties.DeliveryMode(rawValue: mode) else {
                throw container.violation(.deliveryMode, "expected 1 or 2")
            }
            properties.deliveryMode = deliveryMode
        }
        properties.headers = FieldTable(json: try container.decodeIfPresent([String: JSONValue].self, forKey: .headers) ?? [:])
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(properties.contentType, forKey: .contentType)
        try container.encodeIfPresent(properties.contentEncoding, forKey: .contentEncoding)
        try container.encodeIfPresent(properties.messageId, forKey: .messageId)
        try container.encodeIfPresent(properties.correlationId, forKey: .correlationId)
        try container.encodeIfPresent(properties.type, forKey: .type)
        try container.encodeIfPresent(properties.appId, forKey: .appId)
        try container.encodeIfPresent(properties.timestamp, forKey: .timestamp)
        try container.encodeIfPresent(properties.deliveryMode?.rawValue, forKey: .deliveryMode)
        if !properties.headers.isEmpty {
            try container.encode(properties.jsonHeaders, forKey: .headers)
        }
    }
}
