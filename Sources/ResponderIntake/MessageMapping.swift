import AMQP
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
    /// AMQP properties by their contract names, headers as they arrived. A timestamp past 2^63 - 1 seconds (any
    /// 64-bit value can arrive) has no contract form and is left out.
    public init(_ properties: BasicProperties) {
        self.init(
            contentType: properties.contentType, contentEncoding: properties.contentEncoding,
            messageId: properties.messageID, correlationId: properties.correlationID, type: properties.type,
            appId: properties.appID, timestamp: properties.timestamp.flatMap { Int64(exactly: $0) },
            deliveryMode: properties.deliveryMode.map { $0 == .persistent ? .persistent : .transient },
            headers: properties.headers)
    }
}

extension BasicProperties {
    /// The AMQP properties for a message of the pipeline.
    public init(_ properties: MessageProperties) {
        self.init(
            headers: properties.headers, deliveryMode: properties.amqpDeliveryMode,
            timestamp: properties.amqpTimestamp)
        for property in ShortStringProperty.allCases { self[shortString: property] = properties.amqpShortString(property) }
    }
}

extension PublishLimits {
    /// Why a message with these properties cannot be published, or `nil` when it can: the check of
    /// `BasicProperties(properties)`, measured through the same mapping without making them (every output is
    /// checked, and making its AMQP properties cost more than measuring them).
    public func problem(exchange: String, routingKey: String, properties: MessageProperties, bodySize: Int) -> String? {
        problem(
            exchange: exchange, routingKey: routingKey, bodySize: bodySize,
            shortStringBytes: { properties.amqpShortString($0)?.utf8.count },
            deliveryMode: properties.amqpDeliveryMode, timestamp: properties.amqpTimestamp,
            headers: properties.headers)
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
}

extension BasicProperties.DeliveryMode {
    /// AMQP's delivery mode for the pipeline's.
    init(_ mode: MessageProperties.DeliveryMode) {
        self = mode == .persistent ? .persistent : .transient
    }
}
