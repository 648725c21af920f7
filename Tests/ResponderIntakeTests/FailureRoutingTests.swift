import AMQP
import Foundation
import NotificationEvents
import Responder
import ResponderIntake
import Testing

@testable import ResponderIntake

/// Where a failed or refused input goes, decided without a broker: the retry queues in order with a growing
/// attempt count, then the dead-letter exchange with the whole history and a reason.
@Suite struct FailureRoutingTests {
    let routing = FailureRouting(topology: Topology(), workerID: "worker-7")
    /// Times with milliseconds, as real clocks give them.
    let firstFailure = Date(timeIntervalSince1970: 1_795_165_300.250)
    /// RabbitMQ's default frame size.
    let limits = PublishLimits(frameMax: 131_072)

    /// An input as the producer published it.
    func published(headers: FieldTable = ["traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"])
        -> AMQPDelivery
    {
        var properties = MessageProperties()
        properties.contentType = "application/cloudevents+json"
        properties.messageID = "evt-1"
        properties.deliveryMode = .persistent
        properties.headers = headers
        return AMQPDelivery(
            body: Array(#"{"id":"evt-1"}"#.utf8), properties: properties, exchange: "notifications.responses",
            routingKey: "red-category", deliveryTag: 1, consumerTag: "c")
    }

    /// The delivery the worker gets after `publication` waited in its retry queue: the broker dead-letters it into
    /// the input queue through the default exchange and adds `x-death`.
    func redelivered(_ publication: ForwardedInput) -> AMQPDelivery {
        var properties = publication.properties
        properties.headers["x-death"] = .array([
            .table(["queue": .string(publication.routingKey), "reason": "expired", "count": .int64(1)])
        ])
        return AMQPDelivery(
            body: publication.body, properties: properties, exchange: "", routingKey: routing.topology.inputQueue,
            deliveryTag: 2, consumerTag: "c")
    }

    func info(_ publication: ForwardedInput) throws -> DeadLetterInfo {
        try DeadLetterInfo(headers: publication.properties.jsonHeaders)
    }

    @Test func aRetryableFailureGoesToTheFirstRetryQueueWithoutAReason() throws {
        let input = published()
        let (retry, deadLetterReason) = routing.afterFailure(of: input, detail: "the store timed out", retryable: true, limits: limits, now: firstFailure)
        #expect(deadLetterReason == nil)
        #expect(retry.exchange == "")
        #expect(retry.routingKey == "responder.responses.retry.1s")
        #expect(retry.body == input.body)
        let headers = retry.properties.headers
        #expect(headers["x-responder-reason"] == nil, "a retry is not a dead letter")
        #expect(headers["x-responder-attempts"]?.intValue == 1)
        #expect(headers["x-responder-detail"]?.stringValue == "the store timed out")
        #expect(headers["x-responder-original-exchange"]?.stringValue == "notifications.responses")
        #expect(headers["x-responder-original-routing-key"]?.stringValue == "red-category")
        #expect(headers["x-responder-worker"]?.stringValue == "worker-7")
        #expect(headers["x-responder-first-failure"]?.stringValue == "2026-11-20T09:01:40.250Z")
        #expect(headers["traceparent"] == input.properties.headers["traceparent"])
        #expect(retry.properties.messageID == "evt-1")
        #expect(retry.properties.contentType == "application/cloudevents+json")
        #expect(retry.properties.deliveryMode == .persistent)
    }

    @Test func attemptsCountThroughEveryRetryQueueThenTheInputIsDeadLetteredWithItsHistory() throws {
        var delivery = published()
        var now = firstFailure
        var queues: [String] = []
        for attempt in 1...3 {
            let (retry, deadLetterReason) = routing.afterFailure(of: delivery, detail: "try \(attempt)", retryable: true, limits: limits, now: now)
            #expect(deadLetterReason == nil)
            #expect(retry.properties.headers["x-responder-attempts"]?.intValue == attempt)
            queues.append(retry.routingKey)
            delivery = redelivered(retry)
            now += 1.5
        }
        #expect(queues == ["responder.responses.retry.1s", "responder.responses.retry.10s", "responder.responses.retry.60s"])

        let (deadLetter, deadLetterReason) = routing.afterFailure(of: delivery, detail: "try 4", retryable: true, limits: limits, now: now)
        #expect(deadLetterReason != nil)
        #expect(deadLetter.exchange == "responder.dead-letter")
        #expect(deadLetter.routingKey == "red-category", "dead letters keep the producer's routing key")
        #expect(deadLetter.body == published().body)
        let info = try info(deadLetter)
        #expect(info.reason == .retriesExhausted)
        #expect(info.detail == "try 4", "the last error")
        #expect(info.attempts == 4)
        #expect(info.originalExchange == "notifications.responses")
        #expect(info.originalRoutingKey == "red-category")
        #expect(info.firstFailure == firstFailure, "the first failure survives the trips through the retry queues")
        #expect(info.lastFailure == now)
        #expect(info.worker == "worker-7")
        #expect(deadLetter.properties.headers["traceparent"] == published().properties.headers["traceparent"])
    }

    @Test func aPermanentFailureIsDeadLetteredAtOnce() throws {
        let (deadLetter, deadLetterReason) = routing.afterFailure(
            of: published(), detail: "the category has no such button", retryable: false, limits: limits, now: firstFailure)
        #expect(deadLetterReason != nil)
        #expect(deadLetter.exchange == "responder.dead-letter")
        let info = try info(deadLetter)
        #expect(info.reason == .handlerFailed)
        #expect(info.attempts == 1)
        #expect(info.detail == "the category has no such button")
    }

    @Test func aPermanentFailureOnARetryKeepsTheCount() throws {
        let (retry, _) = routing.afterFailure(of: published(), detail: "busy", retryable: true, limits: limits, now: firstFailure)
        let later = firstFailure + 2
        let (deadLetter, deadLetterReason) = routing.afterFailure(of: redelivered(retry), detail: "gone", retryable: false, limits: limits, now: later)
        #expect(deadLetterReason != nil)
        let info = try info(deadLetter)
        #expect(info.reason == .handlerFailed)
        #expect(info.attempts == 2)
        #expect(info.firstFailure == firstFailure)
        #expect(info.lastFailure == later)
    }

    @Test func withoutRetryQueuesARetryableFailureIsExhaustedAtOnce() throws {
        var topology = Topology()
        topology.retryDelays = []
        let routing = FailureRouting(topology: topology, workerID: "w")
        let (deadLetter, deadLetterReason) = routing.afterFailure(of: published(), detail: "busy", retryable: true, limits: limits, now: firstFailure)
        #expect(deadLetterReason != nil)
        #expect(try info(deadLetter).reason == .retriesExhausted)
    }

    /// Ordered mode retried the input in place already: its failure is final, counted with the retries it had.
    @Test func anOrderedTopologyDeadLettersAFailureThatWasRetriedInPlace() throws {
        var topology = Topology()
        topology.shards = 4
        let routing = FailureRouting(topology: topology, workerID: "w")
        let (deadLetter, deadLetterReason) = routing.afterFailure(
            of: published(), detail: "busy", retryable: true, retriedInPlace: 3, firstFailureInPlace: firstFailure,
            limits: limits, now: firstFailure.addingTimeInterval(71))
        #expect(deadLetterReason == .retriesExhausted)
        #expect(deadLetter.exchange == "responder.dead-letter")
        #expect(deadLetter.routingKey == "red-category")
        let info = try info(deadLetter)
        #expect(info.attempts == 4)
        #expect(info.firstFailure == firstFailure)
        #expect(info.lastFailure == firstFailure.addingTimeInterval(71))
        #expect(info.originalExchange == "notifications.responses")
    }

    @Test(arguments: [DeadLetterReason.malformedJSON, .invalidField, .unknownType, .unknownSpecVersion, .unsupportedContentType, .bodyTooLarge])
    func aRefusedInputIsDeadLetteredUntriedWithItsReason(reason: DeadLetterReason) throws {
        let input = published()
        let deadLetter = routing.deadLetter(input, reason: reason, detail: "data.notification: missing", limits: limits, now: firstFailure)
        #expect(deadLetter.exchange == "responder.dead-letter")
        #expect(deadLetter.routingKey == "red-category")
        #expect(deadLetter.body == input.body)
        #expect(deadLetter.properties.messageID == "evt-1")
        let info = try info(deadLetter)
        #expect(info.reason == reason)
        #expect(info.detail == "data.notification: missing")
        #expect(info.attempts == 0)
        #expect(info.firstFailure == firstFailure)
        #expect(info.lastFailure == firstFailure)
        #expect(info.originalExchange == "notifications.responses")
    }
}
