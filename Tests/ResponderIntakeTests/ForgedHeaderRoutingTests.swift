import AMQP
import Foundation
import NotificationEvents
import Responder
import ResponderIntake
import Testing

@testable import ResponderIntake

/// Failure routing when the input's headers are a hostile producer's: forged `x-responder-*` history, error
/// details without bound, and headers that leave no room for the failure headers in a frame.
@Suite struct ForgedHeaderRoutingTests {
    let routing = FailureRouting(topology: Topology(), workerID: "worker-7")
    let limits = PublishLimits(frameMax: 131_072)
    let now = Date(timeIntervalSince1970: 1_795_165_300)

    func input(headers: FieldTable = [:], messageID: String = "evt-1", routingKey: String = "red-category") -> AMQPDelivery {
        AMQPDelivery(
            body: Array(#"{"id":"evt-1"}"#.utf8),
            properties: MessageProperties(contentType: "application/cloudevents+json", messageID: messageID, headers: headers),
            exchange: "notifications.responses", routingKey: routingKey, deliveryTag: 1, consumerTag: "c")
    }

    func info(_ publication: ForwardedInput) throws -> DeadLetterInfo {
        try DeadLetterInfo(headers: publication.properties.jsonHeaders)
    }

    @Test(arguments: [FieldValue.int64(.max), .int64(4), .uint32(.max)])
    func anAttemptCountBeyondTheRetriesMeansEveryRetryIsSpent(forged: FieldValue) throws {
        let (letter, reason) = routing.afterFailure(
            of: input(headers: ["x-responder-attempts": forged]), detail: "busy", retryable: true, limits: limits, now: now)
        #expect(reason == .retriesExhausted)
        #expect(try info(letter).attempts == 4)
    }

    @Test(arguments: [FieldValue.int64(.min), .int8(-1), .string("2"), .double(2), .void, .table(["a": 1])])
    func anAttemptCountThatIsNotACountIsReadAsNone(forged: FieldValue) {
        let (retry, reason) = routing.afterFailure(
            of: input(headers: ["x-responder-attempts": forged]), detail: "busy", retryable: true, limits: limits, now: now)
        #expect(reason == nil)
        #expect(retry.routingKey == "responder.responses.retry.1s")
        #expect(retry.properties.headers["x-responder-attempts"] == .int64(1))
    }

    @Test func anOriginalRoutingKeyOrExchangeAMQPCannotCarryIsIgnored() throws {
        let headers: FieldTable = [
            "x-responder-original-routing-key": .string(String(repeating: "k", count: 300)),
            "x-responder-original-exchange": .bytes([0xFF, 0xFE]),
        ]
        let letter = routing.deadLetter(input(headers: headers), reason: .invalidField, detail: "d", limits: limits, now: now)
        #expect(letter.routingKey == "red-category")
        let info = try info(letter)
        #expect(info.originalRoutingKey == "red-category")
        #expect(info.originalExchange == "notifications.responses")
    }

    /// A producer that may publish only to the input exchange names the output exchange, or the default exchange
    /// and another queue, as where its input came from: the dead letter and every retry name where the broker
    /// delivered it from instead, so a redrive cannot take it anywhere else.
    @Test(arguments: [("notifications.action-updates", "red-category"), ("", "someone.elses.queue")])
    func anOriginTheProducerForgedIsNeverTheOrigin(forged: (exchange: String, routingKey: String)) throws {
        let headers: FieldTable = [
            "x-responder-original-exchange": .string(forged.exchange),
            "x-responder-original-routing-key": .string(forged.routingKey),
        ]
        let letter = routing.deadLetter(input(headers: headers), reason: .malformedJSON, detail: "d", limits: limits, now: now)
        #expect(letter.routingKey == "red-category")
        #expect(try info(letter).originalExchange == "notifications.responses")
        #expect(try info(letter).originalRoutingKey == "red-category")
        let (retry, _) = routing.afterFailure(of: input(headers: headers), detail: "busy", retryable: true, limits: limits, now: now)
        #expect(retry.properties.headers["x-responder-original-exchange"] == .string("notifications.responses"))
        #expect(retry.properties.headers["x-responder-original-routing-key"] == .string("red-category"))
    }

    /// In ordered mode every delivery comes from a shard: no header the producer sent names its origin either.
    @Test func anOrderedTopologyNeverReadsTheOriginFromHeaders() throws {
        var topology = Topology()
        topology.shards = 2
        let ordered = FailureRouting(topology: topology, workerID: "w")
        let headers: FieldTable = ["x-responder-original-exchange": "notifications.action-updates"]
        let letter = ordered.deadLetter(input(headers: headers), reason: .malformedJSON, detail: "d", limits: limits, now: now)
        #expect(try info(letter).originalExchange == "notifications.responses")
    }

    @Test(arguments: ["yesterday", String(repeating: "2026-11-20T09:00:00Z", count: 10)])
    func aFirstFailureThatIsNotAShortDateIsReplacedByNow(forged: String) throws {
        let letter = routing.deadLetter(
            input(headers: ["x-responder-first-failure": .string(forged)]), reason: .invalidField, detail: "d",
            limits: limits, now: now)
        #expect(try info(letter).firstFailure == now)
    }

    @Test func aRoutingKeyLongerThanAMQPAllowsIsCutAtACharacterBoundary() {
        // Decoding replaces each invalid UTF-8 byte with three, so a key the broker delivered can grow past 255.
        let grown = String(repeating: "\u{FFFD}", count: 200)
        let letter = routing.deadLetter(input(routingKey: grown), reason: .invalidField, detail: "d", limits: limits, now: now)
        #expect(letter.routingKey == String(repeating: "\u{FFFD}", count: 85))
        #expect(limits.problem(letter) == nil)
    }

    @Test func aDetailIsBoundedAndMarkedAsCut() throws {
        let quoted = String(repeating: "é", count: 5_000)
        let letter = routing.deadLetter(input(), reason: .invalidField, detail: "bad value \(quoted)", limits: limits, now: now)
        let detail = try info(letter).detail
        #expect(detail.utf8.count <= DeadLetterInfo.maximumDetailBytes)
        #expect(detail.hasPrefix("bad value éé"))
        #expect(detail.hasSuffix(DeadLetterInfo.cutMarker))
        #expect(DeadLetterInfo.boundedDetail("short") == "short")
    }

    @Test func aRetryWithNoRoomLeftInTheFrameIsDeadLetteredWithoutTheInputsHeaders() throws {
        // Headers that fill a frame on their own: adding the failure headers would make a publish librabbitmq
        // cannot encode.
        let filler: FieldTable = ["filler": .bytes(Array(repeating: 0x41, count: 130_800))]
        let delivery = input(headers: filler)
        #expect(limits.problem(ForwardedInput(exchange: "", routingKey: "q", body: [], properties: delivery.properties)) == nil)
        let (letter, reason) = routing.afterFailure(of: delivery, detail: "busy", retryable: true, limits: limits, now: now)
        #expect(reason == .unpublishable)
        #expect(limits.problem(letter) == nil)
        #expect(letter.exchange == "responder.dead-letter")
        #expect(letter.properties.headers["filler"] == nil)
        #expect(letter.properties.messageID == "evt-1")
        #expect(letter.body == delivery.body)
        let info = try info(letter)
        #expect(info.reason == .unpublishable)
        #expect(info.detail.contains("the input's headers were dropped"))
    }

    @Test func aDeadLetterDropsAPropertyTheWireCannotCarry() throws {
        let letter = routing.deadLetter(
            input(messageID: String(repeating: "\u{FFFD}", count: 100)), reason: .malformedJSON, detail: "d",
            limits: limits, now: now)
        #expect(limits.problem(letter) == nil)
        #expect(letter.properties.messageID == nil)
        #expect(letter.properties.contentType == "application/cloudevents+json")
        #expect(try info(letter).reason == .malformedJSON)
    }

    /// Every short-string property: one over 255 bytes is dropped, one at 255 kept, whichever they are.
    @Test(arguments: ShortStringProperty.allCases)
    func aDeadLetterDropsEveryShortStringTheWireCannotCarry(property: ShortStringProperty) throws {
        for (long, kept) in [(256, 255), (300, 1)] {
            var delivery = input()
            delivery.message.properties[shortString: property] = String(repeating: "x", count: long)
            let other = property == .appID ? ShortStringProperty.replyTo : .appID
            delivery.message.properties[shortString: other] = String(repeating: "y", count: kept)
            let letter = routing.deadLetter(delivery, reason: .malformedJSON, detail: "d", limits: limits, now: now)
            #expect(limits.problem(letter) == nil)
            #expect(letter.properties[shortString: property] == nil)
            #expect(letter.properties[shortString: other] == String(repeating: "y", count: kept))
            #expect(try info(letter).detail.contains("the input's headers were dropped"))
        }
    }

    @Test func anUnpublishableOutputDeadLettersItsInputWithAReason() throws {
        let letter = routing.deadLetter(
            input(), unpublishable: "the routing key has 300 bytes, over 255", limits: limits, now: now)
        let info = try info(letter)
        #expect(info.reason == .unpublishable)
        #expect(info.detail == "a message built for this input cannot be published: the routing key has 300 bytes, over 255")
    }
}
