import AMQP
import Foundation
import NotificationEvents
import ResponderIntake
import Testing

/// Where a dead letter came from and why, read from the worker's headers or from the broker's `x-death`, and the
/// properties it goes back to the input with.
@Suite struct DeadLetterOriginTests {
    /// A message as it sits in the dead-letter queue, reached through the dead-letter exchange.
    func deadLetter(headers: FieldTable, routingKey: String = "red-category") -> AMQPDelivery {
        var properties = MessageProperties()
        properties.messageID = "evt-1"
        properties.contentType = "application/cloudevents+json"
        properties.deliveryMode = .persistent
        properties.headers = headers
        return AMQPDelivery(
            body: [1, 2], properties: properties, exchange: "responder.dead-letter", routingKey: routingKey,
            deliveryTag: 1, consumerTag: "")
    }

    static let workerHeaders: FieldTable = [
        "traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "x-responder-reason": "retries-exhausted",
        "x-responder-detail": "the store timed out",
        "x-responder-original-exchange": "notifications.responses",
        "x-responder-original-routing-key": "green-category",
        "x-responder-attempts": .int64(4),
        "x-responder-first-failure": "2026-11-20T09:01:40.250Z",
        "x-responder-last-failure": "2026-11-20T09:02:40Z",
        "x-responder-worker": "host-42",
        "x-death": .array([.table(["queue": "responder.responses.retry.60s", "reason": "expired"])]),
        "x-first-death-reason": "expired",
        "x-first-death-queue": "responder.responses.retry.1s",
        "x-first-death-exchange": "",
        "x-last-death-reason": "expired",
        "x-last-death-queue": "responder.responses.retry.60s",
        "x-last-death-exchange": "",
        "x-delivery-count": .int64(1),
    ]

    @Test func theWorkersHeadersSayWhyAndWithWhichRoutingKey() {
        let origin = DeadLetterOrigin(deadLetter(headers: Self.workerHeaders), inputExchange: "notifications.responses")
        #expect(origin.reason == .retriesExhausted)
        #expect(origin.exchange == "notifications.responses")
        #expect(origin.routingKey == "green-category")
    }

    /// A dead letter the broker made keeps what the producer forged; the broker's own `x-death` names an exchange
    /// too. Neither is where a redrive goes.
    @Test func aRedriveGoesToTheInputExchangeWhateverTheHeadersSay() {
        var headers = Self.workerHeaders
        headers["x-responder-original-exchange"] = "notifications.action-updates"
        headers["x-death"] = .array([.table(["reason": "delivery_limit", "exchange": "", "routing-keys": .array(["q"])])])
        #expect(DeadLetterOrigin(deadLetter(headers: headers), inputExchange: "in").exchange == "in")
        headers["x-responder-original-exchange"] = nil
        #expect(DeadLetterOrigin(deadLetter(headers: headers), inputExchange: "in").exchange == "in")
    }

    @Test func theCleanedPropertiesKeepOnlyWhatTheProducerSent() {
        let message = deadLetter(headers: Self.workerHeaders)
        let cleaned = DeadLetterOrigin(message, inputExchange: "notifications.responses").cleanedProperties
        #expect(cleaned.headers.keys == ["traceparent"])
        var expected = message.properties
        expected.headers = ["traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"]
        #expect(cleaned == expected)
    }

    @Test func aMessageTheBrokerDeadLetteredForItsDeliveryLimitIsReadFromXDeath() {
        let headers: FieldTable = [
            "x-death": .array([
                .table([
                    "count": .int64(1), "reason": "delivery_limit", "queue": "responder.responses",
                    "exchange": "notifications.responses", "routing-keys": .array(["red-category"]),
                ])
            ]),
            "x-first-death-reason": "delivery_limit",
        ]
        // The input queue dead-letters with its own name as the routing key.
        let origin = DeadLetterOrigin(
            deadLetter(headers: headers, routingKey: "responder.responses"), inputExchange: "notifications.responses")
        #expect(origin.reason == .deliveryLimitExceeded)
        #expect(origin.exchange == "notifications.responses")
        #expect(origin.routingKey == "red-category")
        #expect(origin.cleanedProperties.headers.isEmpty)
    }

    @Test func aMessageWithoutHistoryGoesToTheInputExchangeWithItsRoutingKey() {
        let origin = DeadLetterOrigin(deadLetter(headers: [:]), inputExchange: "notifications.responses")
        #expect(origin.reason == nil)
        #expect(origin.exchange == "notifications.responses")
        #expect(origin.routingKey == "red-category")
    }

    @Test func anUnknownReasonCodeIsNoReason() {
        let origin = DeadLetterOrigin(
            deadLetter(headers: ["x-responder-reason": "cosmic-rays"]), inputExchange: "notifications.responses")
        #expect(origin.reason == nil)
    }
}
