import Foundation
import NotificationEvents

/// One line of a recorded fixture file (JSON Lines, Schemas/fixture.v1.schema.json): one AMQP delivery as it was
/// recorded, or one output of a replay. The body is kept as JSON under `body` when it is JSON, else as base64 under
/// `bodyBase64`.
///
/// The replay format, so it lives with replay: the contract module holds the events a consumer reads, not the files
/// a replay reads. Its properties are the members of `MessageProperties` the contract names (no `priority`,
/// `replyTo`, `expiration` or `userID`, no timestamp past 2^63 - 1 seconds); the file leaves out `headers` when there
/// are none, and reads an absent `headers` as none (FixtureLine+Properties.swift).
public struct FixtureLine: Sendable, Hashable, Codable {
    /// The exchange the message was published to; empty for the default exchange.
    public var exchange: String
    /// The routing key the message was published with.
    public var routingKey: String
    /// Whether the broker had delivered the message before.
    public var redelivered: Bool?
    /// The message's properties, as far as the file records them.
    public var properties: MessageProperties
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
    public init(
        exchange: String, routingKey: String, redelivered: Bool? = nil, properties: MessageProperties,
        bodyBytes bytes: [UInt8]
    ) {
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

    /// A line read directly (FixtureLine+Reading.swift), its members already checked.
    init(
        exchange: String, routingKey: String, redelivered: Bool?, properties: MessageProperties, bodyJSON: RawJSON?,
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
        let container = try decoder.container(keyedBy: CodingKeys.self)
        exchange = try container.decode(String.self, forKey: .exchange)
        routingKey = try container.decode(String.self, forKey: .routingKey)
        redelivered = try container.decodeIfPresent(Bool.self, forKey: .redelivered)
        properties = try container.decode(RecordedProperties.self, forKey: .properties).properties
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
        try container.encode(RecordedProperties(properties), forKey: .properties)
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
