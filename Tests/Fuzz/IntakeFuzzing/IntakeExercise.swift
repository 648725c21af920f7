import AMQP
import Foundation
import Logging
import NotificationEvents
import RedGreenExample
import Responder
import ResponderIntake

/// What the worker does to a delivery before and after its handlers, without a broker: its message as the pipeline
/// reads it, admission and decoding, the failure routing that builds retries and dead letters, what `record`
/// writes and what `redrive` reads back. Anything that traps here would stop `responder run`; the checks after
/// each step are the promises hostile input must not break.
public enum IntakeExercise {
    private static let pipeline: ResponsePipeline = {
        var registry = HandlerRegistry()
        try? RedGreen.register(in: &registry)
        return ResponsePipeline(
            registry: registry, store: InMemoryStateStore(),
            logger: Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() }))
    }()
    private static let routing = FailureRouting(topology: Topology(), workerID: "fuzz")
    private static let limits = PublishLimits(frameMax: 131_072, maxBodySize: 256 * 1024)
    private static let now = Date(timeIntervalSince1970: 1_795_165_200)

    /// Runs the delivery `bytes` describe (``IntakeInput``) through the intake; traps when a promise breaks.
    public static func run(_ bytes: [UInt8]) {
        let delivery = IntakeInput(bytes).delivery
        let message = delivery.message
        // `record` writes every delivery as a fixture line: each header must have a JSON form.
        let line = EventCodec.encode(FixtureLine(delivered: message))
        precondition((try? EventCodec.decodeFixtureLine(line)) != nil, "a recorded line does not read back")
        expectDirectReadingAgrees(message)

        do {
            _ = try pipeline.decode(message)
            // Decoded: what a failing handler makes of it, a retry or (attempts spent, forged or not) a dead letter.
            let (publication, reason) = routing.afterFailure(
                of: delivery, detail: "a handler failed", retryable: true, limits: limits, now: now)
            if reason == nil {
                precondition(limits.problem(publication) == nil, "a retry that cannot be published")
            } else {
                expectDeadLetter(publication, of: delivery)
            }
        } catch {
            precondition(error.detail.utf8.count <= DeadLetterInfo.maximumDetailBytes, "an unbounded detail")
            expectDeadLetter(
                routing.deadLetter(delivery, reason: error.reason, detail: error.detail, limits: limits, now: now), of: delivery)
        }
    }

    /// The input event's direct reader changes no verdict: in both content modes, `decodeResponseEvent` gives the
    /// strict decoder's event or its exact error.
    private static func expectDirectReadingAgrees(_ message: InboundMessage) {
        typealias Outcome = Result<NotificationResponseEvent, EventDecodingError>
        let properties = message.properties
        let structured = Outcome { () throws(EventDecodingError) in try EventCodec.decodeResponseEvent(message.body) }
        let strict = Outcome { () throws(EventDecodingError) in try EventCodec.decodeResponseEventStrictly(message.body) }
        precondition(structured == strict, "the direct reader and the strict decoder disagree")
        let binary = Outcome { () throws(EventDecodingError) in
            try EventCodec.decodeResponseEvent(headers: properties.jsonHeaders, contentType: properties.contentType, body: message.body)
        }
        let binaryStrict = Outcome { () throws(EventDecodingError) in
            try EventCodec.decodeResponseEventStrictly(
                headers: properties.jsonHeaders, contentType: properties.contentType, body: message.body)
        }
        precondition(binary == binaryStrict, "the direct reader and the strict decoder disagree in binary mode")
    }

    /// A dead letter always fits the wire (the body aside, which the transport bounds), carries readable failure
    /// headers, and redrive reads a routable origin from it.
    private static func expectDeadLetter(_ letter: ForwardedInput, of delivery: AMQPDelivery) {
        let problem = limits.problem(letter)
        precondition(problem == nil || delivery.body.count > 256 * 1024, "an unpublishable dead letter: \(problem ?? "")")
        precondition(letter.routingKey.utf8.count <= 255, "a dead letter's routing key over 255 bytes")
        let headers = letter.properties.jsonHeaders
        let info: DeadLetterInfo
        do {
            info = try DeadLetterInfo(headers: headers)
        } catch {
            preconditionFailure("a dead letter's failure headers do not read back: \(error)")
        }
        precondition(info.detail.utf8.count <= DeadLetterInfo.maximumDetailBytes, "an unbounded detail header")
        let origin = DeadLetterOrigin(
            AMQPDelivery(
                body: letter.body, properties: letter.properties, exchange: letter.exchange, routingKey: letter.routingKey,
                deliveryTag: 2, consumerTag: "redrive"),
            inputExchange: "notifications.responses")
        precondition(origin.routingKey.utf8.count <= 255 && origin.exchange.utf8.count <= 255, "an unroutable origin")
    }
}
