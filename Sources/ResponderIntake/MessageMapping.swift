import AMQP
import Foundation
import NotificationEvents
import Responder

// The pipeline speaks transport-agnostic messages; these map them to and from AMQP's.

extension InboundMessage {
    /// The pipeline's view of a delivery.
    public init(_ delivery: AMQPDelivery) {
        self.init(
            body: delivery.body, properties: MessageProperties(delivery.properties), exchange: delivery.exchange,
            routingKey: delivery.routingKey, redelivered: delivery.redelivered)
    }
}

extension MessageProperties {
    /// AMQP properties by their contract names; header values become their JSON equivalents. A timestamp past
    /// 2^63 - 1 seconds (any 64-bit value can arrive) has no contract form and is left out.
    public init(_ properties: BasicProperties) {
        self.init(
            contentType: properties.contentType, contentEncoding: properties.contentEncoding,
            messageId: properties.messageID, correlationId: properties.correlationID, type: properties.type,
            appId: properties.appID, timestamp: properties.timestamp.flatMap { Int64(exactly: $0) },
            deliveryMode: properties.deliveryMode.map { $0 == .persistent ? .persistent : .transient },
            headers: Self.headers(properties.headers))
    }

    /// The headers by name; of a name given twice the last counts, except a CloudEvents attribute header
    /// (`BinaryModeHeaders`), where two values are ambiguous: it becomes the array of both, which no attribute
    /// may be, so a binary-mode input with it is dead-lettered as an invalid field. An attribute header that is an
    /// AMQP timestamp (seconds) becomes milliseconds, the binding's integer form of a time.
    private static func headers(_ table: FieldTable) -> [String: JSONValue] {
        var headers: [String: JSONValue] = [:]
        for (name, field) in table {
            let isAttribute = BinaryModeHeaders.attribute(ofHeader: name) != nil
            var value = JSONValue(field)
            if isAttribute, case .timestamp(let seconds) = field, let exact = Int64(exactly: seconds) {
                let (milliseconds, overflow) = exact.multipliedReportingOverflow(by: 1_000)
                if !overflow { value = .integer(milliseconds) }
            }
            if let earlier = headers.updateValue(value, forKey: name), isAttribute {
                headers[name] = .array([earlier, value])
            }
        }
        return headers
    }
}

extension BasicProperties {
    /// The AMQP properties for a message of the pipeline.
    public init(_ properties: MessageProperties) {
        self.init(
            headers: properties.amqpHeaders, deliveryMode: properties.amqpDeliveryMode,
            timestamp: properties.amqpTimestamp)
        for property in ShortStringProperty.allCases { self[shortString: property] = properties.amqpShortString(property) }
    }
}

extension PublishLimits {
    /// Why a message with these properties cannot be published, or `nil` when it can: the check of
    /// `BasicProperties(properties)`, measured through the same mapping without making them (every output is
    /// checked, and making its AMQP properties cost more than measuring them). Headers, which most outputs do not
    /// have, are measured in their AMQP form: the one mapping of JSON values to field values.
    public func problem(exchange: String, routingKey: String, properties: MessageProperties, bodySize: Int) -> String? {
        problem(
            exchange: exchange, routingKey: routingKey, bodySize: bodySize,
            shortStringBytes: { properties.amqpShortString($0)?.utf8.count },
            deliveryMode: properties.amqpDeliveryMode, timestamp: properties.amqpTimestamp,
            headers: properties.amqpHeaders)
    }
}

/// The pipeline's properties as AMQP's, field by field: the one mapping, which `BasicProperties(_:)` stores and
/// `PublishLimits.problem(exchange:routingKey:properties:bodySize:)` measures.
extension MessageProperties {
    /// The value of each AMQP short-string property; nil for those the pipeline has no field for.
    fileprivate func amqpShortString(_ property: ShortStringProperty) -> String? {
        switch property {
        case .contentType: contentType
        case .contentEncoding: contentEncoding
        case .correlationID: correlationId
        case .messageID: messageId
        case .type: type
        case .appID: appId
        case .replyTo, .expiration, .userID: nil
        }
    }

    fileprivate var amqpDeliveryMode: BasicProperties.DeliveryMode? { deliveryMode.map(BasicProperties.DeliveryMode.init) }

    /// Whole seconds; a time before 1970 is 0.
    fileprivate var amqpTimestamp: UInt64? { timestamp.map { UInt64(clamping: $0) } }

    fileprivate var amqpHeaders: FieldTable { FieldTable(json: headers) }
}

extension BasicProperties.DeliveryMode {
    /// AMQP's delivery mode for the pipeline's.
    init(_ mode: MessageProperties.DeliveryMode) {
        self = mode == .persistent ? .persistent : .transient
    }
}

extension FieldTable {
    /// A table of JSON values, sorted by key: the AMQP form of headers and of JSON objects. An empty object makes an
    /// empty table at once: most outputs carry no headers, and sorting and mapping none cost about 800 instructions.
    init(json object: [String: JSONValue]) {
        guard !object.isEmpty else {
            self.init()
            return
        }
        self.init(object.sorted { $0.key < $1.key }.map { ($0.key, FieldValue($0.value)) })
    }
}

extension JSONValue {
    /// The JSON form of a header value: numbers stay numbers, bytes become base64, timestamps seconds since 1970.
    /// JSON has no NaN or infinity: those floats become the strings `NaN`, `Infinity` and `-Infinity`. A string
    /// that is not UTF-8 becomes one with U+FFFD for each bad sequence.
    public init(_ field: FieldValue) {
        switch field {
        case .bool(let value): self = .bool(value)
        case .int8(let value): self = .integer(Int64(value))
        case .int16(let value): self = .integer(Int64(value))
        case .int32(let value): self = .integer(Int64(value))
        case .int64(let value): self = .integer(value)
        case .uint8(let value): self = .integer(Int64(value))
        case .uint16(let value): self = .integer(Int64(value))
        case .uint32(let value): self = .integer(Int64(value))
        case .float(let value): self = JSONValue(Double(value))
        case .double(let value): self = JSONValue(value)
        // At most 2^32 - 1 over at most 10^255: always finite.
        case .decimal(let scale, let value): self = .number(Double(value) / pow(10, Double(scale)))
        case .string(let value): self = .string(value)
        case .rawString(let value): self = .string(String(decoding: value, as: UTF8.self))
        case .bytes(let value): self = .string(Data(value).base64EncodedString())
        case .array(let values): self = .array(values.map(JSONValue.init))
        case .table(let table): self = .object(Dictionary(table.map { ($0.0, JSONValue($0.1)) }, uniquingKeysWith: { _, last in last }))
        case .timestamp(let seconds): self = Int64(exactly: seconds).map(JSONValue.integer) ?? .number(Double(seconds))
        case .void: self = .null
        }
    }

    private init(_ number: Double) {
        if number.isFinite {
            self = .number(number)
        } else {
            self = .string(number.isNaN ? "NaN" : number < 0 ? "-Infinity" : "Infinity")
        }
    }
}

extension FieldValue {
    /// The AMQP form of a JSON value: integers as 64-bit, objects as tables with sorted keys.
    public init(_ json: JSONValue) {
        switch json {
        case .null: self = .void
        case .bool(let value): self = .bool(value)
        case .integer(let value): self = .int64(value)
        case .number(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .array(let values): self = .array(values.map(FieldValue.init))
        case .object(let object): self = .table(FieldTable(json: object))
        }
    }
}
