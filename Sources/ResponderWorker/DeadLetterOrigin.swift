import AMQP
import NotificationEvents

/// Where a dead-lettered message came from and why it was dead-lettered, read from its headers: the worker's
/// `x-responder-*` headers, or the broker's `x-death` when the broker dead-lettered it (delivery limit).
public struct DeadLetterOrigin: Sendable {
    /// The reason code, when the headers say.
    public var reason: DeadLetterReason?
    /// The exchange the message was first published to.
    public var exchange: String
    /// The routing key it was first published with.
    public var routingKey: String
    /// The message's properties without the failure headers, ready to go back to the input.
    public var cleanedProperties: BasicProperties

    public init(_ message: AMQPDelivery, inputExchange: String) {
        let headers = message.properties.headers
        let firstDeath = headers["x-death"]?.arrayValue?.first?.tableValue
        if let code = headers[DeadLetterInfo.Header.reason.rawValue]?.stringValue {
            reason = DeadLetterReason(rawValue: code)
        } else if firstDeath?["reason"]?.stringValue == "delivery_limit" {
            reason = .deliveryLimitExceeded
        }
        exchange =
            headers[DeadLetterInfo.Header.originalExchange.rawValue]?.stringValue
            ?? firstDeath?["exchange"]?.stringValue ?? inputExchange
        routingKey =
            headers[DeadLetterInfo.Header.originalRoutingKey.rawValue]?.stringValue
            ?? firstDeath?["routing-keys"]?.arrayValue?.first?.stringValue ?? message.routingKey
        var properties = message.properties
        let failureHeaders = Set(DeadLetterInfo.Header.allCases.map(\.rawValue)).union([
            "x-death", "x-first-death-reason", "x-first-death-queue", "x-first-death-exchange",
            "x-last-death-reason", "x-last-death-queue", "x-last-death-exchange", "x-delivery-count",
        ])
        properties.headers = FieldTable(properties.headers.filter { !failureHeaders.contains($0.0) })
        cleanedProperties = properties
    }
}
