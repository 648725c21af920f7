import Foundation

/// One line of a recorded fixture file (JSON Lines): one AMQP delivery as it was recorded, or one output of a
/// replay. The body is kept as JSON under `body` when it is JSON, else as base64 under `bodyBase64`.
public struct FixtureLine: Sendable, Hashable, Codable, ContractObject {
    /// The AMQP basic properties of the delivery, by their contract names.
    ///
    /// Why not Responder's `MessageProperties`: this is the fixture file's shape (Schemas/fixture.v1.schema.json),
    /// part of the contract that the pipeline's target builds on, so it cannot live there. It is what the file says,
    /// decoded strictly: an absent `headers` stays absent so a recorded line round-trips byte for byte, and the
    /// delivery mode is the recorded number. `MessageProperties` is a message in flight: headers always present,
    /// delivery mode an enum. Responder's `FixtureLine+Messages.swift` converts between the two.
    public struct Properties: Sendable, Hashable, Codable, ContractObject {
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
            try self.init(fields: decoder.container(keyedBy: CodingKeys.self))
        }

        static func read(from tape: JSONTape, at node: Int) throws -> Self {
            try Self(fields: TapeObject(tape: tape, objectAt: node))
        }

        private init(fields container: some ContractFields<CodingKeys>) throws {
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
    public var body: JSONValue? {
        get { bodyJSON?.value }
        set { bodyJSON = newValue.map(RawJSON.init) }
    }
    /// The body, when it is not JSON by the contract's rules (or is JSON `null`).
    public var bodyBase64: String?
    /// The JSON body as the recorded or decoded text, so ``bodyBytes`` gives back exactly those bytes.
    private(set) var bodyJSON: RawJSON?

    /// A line for `bytes`, stored as JSON when they are JSON by the contract's rules and as base64 otherwise.
    ///
    /// A body the contract refuses as JSON (a duplicate key, `NaN`, …) is kept as base64, so replaying it
    /// refuses it again in the same way; JSON `null` is kept as base64 too, since `"body": null` reads as absent.
    public init(exchange: String, routingKey: String, redelivered: Bool? = nil, properties: Properties, bodyBytes bytes: [UInt8]) {
        self.exchange = exchange
        self.routingKey = routingKey
        self.redelivered = redelivered
        self.properties = properties
        // An output of the contract encoder is already stable: kept as it is, without a parse.
        if let stable = RawJSON(stableText: bytes) {
            self.bodyJSON = stable
        } else if let tape = try? StrictJSONParser.parse(bytes), tape.nodes[0].kind != .null {
            self.bodyJSON = RawJSON(tape, node: 0)
        } else {
            self.bodyBase64 = Data(bytes).base64EncodedString()
        }
    }

    /// A line read directly (FixtureLineReading.swift), its members already checked.
    init(
        exchange: String, routingKey: String, redelivered: Bool?, properties: Properties, bodyJSON: RawJSON?,
        bodyBase64: String?
    ) {
        self.exchange = exchange
        self.routingKey = routingKey
        self.redelivered = redelivered
        self.properties = properties
        self.bodyJSON = bodyJSON
        self.bodyBase64 = bodyBase64
    }

    private enum CodingKeys: String, CodingKey {
        case exchange, routingKey, redelivered, properties, body, bodyBase64
    }

    /// Reads a line; exactly one of `body` and `bodyBase64` must be set, and `bodyBase64` must be base64 with
    /// padding.
    public init(from decoder: any Decoder) throws {
        try self.init(fields: decoder.container(keyedBy: CodingKeys.self))
    }

    static func read(from tape: JSONTape, at node: Int) throws -> Self {
        try Self(fields: TapeObject(tape: tape, objectAt: node))
    }

    private init(fields container: some ContractFields<CodingKeys>) throws {
        exchange = try container.decode(String.self, forKey: .exchange)
        routingKey = try container.decode(String.self, forKey: .routingKey)
        redelivered = try container.decodeIfPresent(Bool.self, forKey: .redelivered)
        properties = try container.decode(Properties.self, forKey: .properties)
        bodyJSON = try container.decodeIfPresent(RawJSON.self, forKey: .body)
        bodyBase64 = try container.decodeIfPresent(String.self, forKey: .bodyBase64)
        switch (bodyJSON, bodyBase64) {
        case (nil, nil): throw container.violation(.body, "missing, and no bodyBase64")
        case (.some, .some): throw container.violation(.bodyBase64, "not allowed together with body")
        case (nil, .some(let base64)) where Data(base64Encoded: base64) == nil:
            throw container.violation(.bodyBase64, "expected base64")
        default: break
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(exchange, forKey: .exchange)
        try container.encode(routingKey, forKey: .routingKey)
        try container.encodeIfPresent(redelivered, forKey: .redelivered)
        try container.encode(properties, forKey: .properties)
        try container.encodeIfPresent(bodyJSON, forKey: .body)
        try container.encodeIfPresent(bodyBase64, forKey: .bodyBase64)
    }

    /// The body's bytes: for a JSON body the text it was recorded or read with (a fixture file holds it with
    /// sorted keys and no spacing), or the JSON text of a body that was set; else the decoded base64.
    public var bodyBytes: [UInt8] {
        if let bodyJSON { return bodyJSON.bytes }
        return bodyBase64.flatMap { Data(base64Encoded: $0) }.map { Array($0) } ?? []
    }
}
