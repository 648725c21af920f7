import AMQP
import Foundation
import NotificationEvents

/// Why a dead-lettered message was dead-lettered and where a redrive sends it back, read from its headers: the
/// worker's `x-responder-*` headers, or the broker's `x-death` when the broker dead-lettered it: `delivery_limit`, or
/// `rejected` for an input the worker refused unread because its body was over the limit.
///
/// A redrive goes to the input exchange and nowhere else, whatever the headers say: a producer allowed to publish
/// only there can set any header, and a dead letter the broker made keeps them. The routing key is read from the
/// headers (only a string AMQP can route with, at most 255 bytes), because on the input exchange it can reach only
/// what the input exchange's bindings reach, which that producer reaches anyway; it is the routing key the worker
/// saw on first delivery, so in ordered mode the message goes back to its notification's shard.
public struct DeadLetterOrigin: Sendable {
    /// The reason code, when the headers say.
    public var reason: DeadLetterReason?
    /// The exchange a redrive publishes to: always the input exchange.
    public var exchange: String
    /// The routing key it was first delivered with.
    public var routingKey: String
    /// The message's properties without the failure headers, ready to go back to the input.
    public var cleanedProperties: MessageProperties
    /// When it was dead-lettered, when the headers say: the worker's last failure, or the broker's `x-death` time.
    public var deadLetteredAt: Date?

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
        // A date the worker wrote is short; anything longer was not written by it.
        deadLetteredAt =
            headers[DeadLetterInfo.Header.lastFailure.rawValue]?.stringValue.flatMap {
                $0.utf8.count <= 64 ? try? Date($0, strategy: .iso8601) : nil
            } ?? firstDeath?["time"]?.dateValue
        exchange = inputExchange
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
