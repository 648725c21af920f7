import AMQP
import NotificationEvents

/// Where a dead-lettered message came from and why it was dead-lettered, read from its headers: the worker's
/// `x-responder-*` headers, or the broker's `x-death` when the broker dead-lettered it: `delivery_limit`, or
/// `rejected` for an input the worker refused unread because its body was over the limit. Exchange and routing key
/// are taken from the headers only when they are strings AMQP can route with (at most 255 bytes).
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
        } else {
            switch firstDeath?["reason"]?.stringValue {
            case "delivery_limit": reason = .deliveryLimitExceeded
            case "rejected": reason = .bodyTooLarge
            default: break
            }
        }
        func routable(_ value: FieldValue?) -> String? {
            value?.stringValue.flatMap { $0.utf8.count <= 255 ? $0 : nil }
        }
        exchange =
            routable(headers[DeadLetterInfo.Header.originalExchange.rawValue])
            ?? routable(firstDeath?["exchange"]) ?? inputExchange
        routingKey =
            routable(headers[DeadLetterInfo.Header.originalRoutingKey.rawValue])
            ?? routable(firstDeath?["routing-keys"]?.arrayValue?.first) ?? message.routingKey
        var properties = message.properties
        let failureHeaders = Set(DeadLetterInfo.Header.allCases.map(\.rawValue)).union([
            "x-death", "x-first-death-reason", "x-first-death-queue", "x-first-death-exchange",
            "x-last-death-reason", "x-last-death-queue", "x-last-death-exchange", "x-delivery-count",
        ])
        properties.headers = FieldTable(properties.headers.filter { !failureHeaders.contains($0.0) })
        cleanedProperties = properties
    }
}
