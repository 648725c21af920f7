import Messaging
import NotificationEvents

extension MessageProperties {
    /// The bytes the state stores keep an output's properties in: JSON with the members the contract names
    /// (`messageId`, `appId`, ...), nil ones left out, headers always written; what a store of your own keeps too.
    /// Outputs carry no other property.
    public var storedBytes: [UInt8] { EventCodec.encode(StoredProperties(self)) }

    /// The properties of `bytes` a state store kept (``storedBytes``).
    public init(storedBytes bytes: [UInt8]) throws {
        self = try EventCodec.decodeStored(StoredProperties.self, from: bytes).properties
    }
}

/// The form the state stores keep an output's properties in: the properties by their contract names (`messageId`,
/// `appId`, ...), nil ones left out, headers always written as their JSON form (`MessageProperties.jsonHeaders`).
/// Outputs carry no other property, and a timestamp is whole seconds since 1970 that fit 63 bits (a stored
/// negative one, written before timestamps were unsigned, reads as 0, what was published for it).
private struct StoredProperties: Codable {
    var properties: MessageProperties

    init(_ properties: MessageProperties) {
        self.properties = properties
    }

    init(from decoder: any Decoder) throws {
        properties = try MessageProperties(
            from: decoder.container(keyedBy: PropertyKey.self), negativeTimestamps: .readAsZero)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: PropertyKey.self)
        try properties.encode(to: &container, emptyHeaders: .written)
    }
}

/// The properties' names in their JSON forms (a fixture line's, a stored output's): the contract's.
enum PropertyKey: String, CodingKey {
    case contentType, contentEncoding, messageID = "messageId", correlationID = "correlationId", type
    case appID = "appId", timestamp, deliveryMode, headers
}

/// The JSON forms of properties (a fixture line's, a stored output's), which differ only where these say.
extension MessageProperties {
    enum NegativeTimestamps { case refused, readAsZero }
    enum EmptyHeaders { case written, leftOut }

    /// Reads the members in the order the contract's reader always has, so a document breaking two rules is
    /// refused for the same one; a delivery mode is 1 or 2; headers may be absent (none).
    init(from container: KeyedDecodingContainer<PropertyKey>, negativeTimestamps: NegativeTimestamps) throws {
        self.init()
        contentType = try container.decodeIfPresent(String.self, forKey: .contentType)
        contentEncoding = try container.decodeIfPresent(String.self, forKey: .contentEncoding)
        messageID = try container.decodeIfPresent(String.self, forKey: .messageID)
        correlationID = try container.decodeIfPresent(String.self, forKey: .correlationID)
        type = try container.decodeIfPresent(String.self, forKey: .type)
        appID = try container.decodeIfPresent(String.self, forKey: .appID)
        timestamp = try (negativeTimestamps == .refused
            ? container.decodeIfPresent(Int64.self, forKey: .timestamp, atLeast: 0)
            : container.decodeIfPresent(Int64.self, forKey: .timestamp)).map { UInt64(clamping: $0) }
        if let mode = try container.decodeIfPresent(Int.self, forKey: .deliveryMode) {
            guard let deliveryMode = UInt8(exactly: mode).flatMap(DeliveryMode.init) else {
                throw container.violation(.deliveryMode, "expected 1 or 2")
            }
            self.deliveryMode = deliveryMode
        }
        headers = FieldTable(json: try container.decodeIfPresent([String: JSONValue].self, forKey: .headers) ?? [:])
    }

    /// Writes the members the contract names, nil ones left out, and a timestamp only when it fits the contract's
    /// integers.
    func encode(to container: inout KeyedEncodingContainer<PropertyKey>, emptyHeaders: EmptyHeaders) throws {
        try container.encodeIfPresent(contentType, forKey: .contentType)
        try container.encodeIfPresent(contentEncoding, forKey: .contentEncoding)
        try container.encodeIfPresent(messageID, forKey: .messageID)
        try container.encodeIfPresent(correlationID, forKey: .correlationID)
        try container.encodeIfPresent(type, forKey: .type)
        try container.encodeIfPresent(appID, forKey: .appID)
        try container.encodeIfPresent(timestamp.flatMap { Int64(exactly: $0) }, forKey: .timestamp)
        try container.encodeIfPresent(deliveryMode?.rawValue, forKey: .deliveryMode)
        if !headers.isEmpty || emptyHeaders == .written {
            try container.encode(jsonHeaders, forKey: .headers)
        }
    }
}
