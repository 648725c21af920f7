import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import ResponderIntake
import Testing
import WorkerHarness

/// Inputs the worker cannot read land on the dead-letter queue, each once, unchanged, with headers saying why,
/// while the good events around them are handled; a user's typed text shows in no log line and no header.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct PoisonInputTests {
    /// Typed reply text no header or log line may show.
    static let secret = "the spare key is under the blue flowerpot"

    /// One input the worker must refuse: its bytes, properties and routing key, and what it should be refused for.
    struct Poison {
        var messageID: String
        var body: [UInt8]
        var contentType: String?
        var routingKey: String
        var reason: DeadLetterReason
        /// Words the readable detail must contain.
        var detailMentions: String
    }

    static func poisons(_ prefix: String) throws -> [Poison] {
        let good = RedGreenTaps.event(id: "\(prefix)-good", request: "\(prefix)-poisoned")
        let reply = RedGreenTaps.event(
            id: "\(prefix)-reply", request: "\(prefix)-poisoned", action: .custom("reply-action"), userText: secret)
        let padding = String(repeating: "x", count: 256 * 1024)
        var huge = good
        huge.data.notification.request.content.userInfo = ["padding": .string(padding)]
        return [
            Poison(
                messageID: "\(prefix)-too-large", body: EventCodec.encode(huge), contentType: "application/json",
                routingKey: "red-category", reason: .bodyTooLarge, detailMentions: ""),
            Poison(
                messageID: "\(prefix)-xml", body: EventCodec.encode(good), contentType: "application/xml",
                routingKey: "green-category", reason: .unsupportedContentType, detailMentions: "application/xml"),
            Poison(
                messageID: "\(prefix)-unknown-type", body: Events.body(good) { $0["type"] = "notification.opened.v1" },
                contentType: "application/cloudevents+json", routingKey: "red-category.mobile", reason: .unknownType,
                detailMentions: "notification.opened.v1"),
            Poison(
                messageID: "\(prefix)-specversion", body: Events.body(good) { $0["specversion"] = "0.3" },
                contentType: "application/cloudevents+json", routingKey: "red-category", reason: .unknownSpecVersion,
                detailMentions: "0.3"),
            Poison(
                messageID: "\(prefix)-invalid-field",
                body: Events.body(good) { body in
                    var data = body["data"] as? [String: Any] ?? [:]
                    data["actionIdentifier"] = 42
                    body["data"] = data
                },
                contentType: "application/cloudevents+json", routingKey: "red-category", reason: .invalidField,
                detailMentions: "data.actionIdentifier"),
            Poison(
                messageID: "\(prefix)-not-json", body: Array("this is not JSON {".utf8), contentType: nil,
                routingKey: "red-category", reason: .malformedJSON, detailMentions: "not valid JSON"),
            // A text reply whose typed text is fine but whose notification date is not: refused with the reply in it.
            Poison(
                messageID: "\(prefix)-private-reply",
                body: Events.body(reply) { body in
                    var data = body["data"] as? [String: Any] ?? [:]
                    var notification = data["notification"] as? [String: Any] ?? [:]
                    notification["date"] = "yesterday"
                    data["notification"] = notification
                    body["data"] = data
                },
                contentType: "application/cloudevents+json", routingKey: "red-category", reason: .invalidField,
                detailMentions: "data.notification.date"),
        ]
    }

    @Test func poisonLandsOnTheDeadLetterQueueWithItsReasonWhileGoodEventsAreHandled() async throws {
        let topology = TestTopology("poison")
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let worker = try WorkerProcess(topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path)
        let workerID = "\(topology.prefix)-\(worker.metricsPort)"
        try await worker.waitUntilReady()

        // The recorded session: nine good taps around five refused inputs.
        let session = try QueueProbe.lines(of: Paths.session("malformed"))
        let expectedFromSession: [String: DeadLetterReason] = [
            "malformed-0003": .malformedJSON, "malformed-0004": .unknownType, "malformed-0005": .unknownSpecVersion,
            "malformed-0006": .invalidField, "malformed-0007": .unsupportedContentType,
        ]
        let poisons = try Self.poisons(topology.prefix)
        // A good text reply carrying the secret, so the worker handles (and logs) one too.
        let goodReply = RedGreenTaps.line(
            RedGreenTaps.event(
                id: "\(topology.prefix)-good-reply", request: "\(topology.prefix)-replied", action: .custom("reply-action"),
                userText: Self.secret),
            exchange: topology.topology.inputExchange)

        let (firstHalf, secondHalf) = (Array(session.prefix(7)), Array(session.dropFirst(7)))
        try await probe.publish(firstHalf)
        for poison in poisons {
            var properties = MessageProperties()
            properties.contentType = poison.contentType
            properties.messageID = poison.messageID
            properties.deliveryMode = .persistent
            properties.headers = ["traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"]
            try await probe.publish(body: poison.body, properties: properties, routingKey: poison.routingKey)
        }
        try await probe.publish([goodReply] + secondHalf)

        let deadLetters = try await probe.takeDeadLetters(expectedFromSession.count + poisons.count)
        let golden = try QueueProbe.lines(of: Paths.golden("malformed"))
        let updates = try await probe.takeUpdates(golden.count)
        #expect(
            try updates.map { try EventCodec.decodeActionSetUpdateEvent($0.body) }
                == golden.map { try EventCodec.decodeActionSetUpdateEvent($0.bodyBytes) },
            "the good taps around the poison give their updates")

        let byID = Dictionary(grouping: deadLetters) { $0.properties.messageID ?? "" }
        #expect(deadLetters.count == expectedFromSession.count + poisons.count, "each input dead-lettered once")
        for (messageID, reason) in expectedFromSession {
            guard let deadLetter = byID[messageID]?.first else {
                Issue.record("\(messageID) was not dead-lettered")
                continue
            }
            let line = try #require(session.first { $0.properties.messageID == messageID })
            try Self.check(
                deadLetter, reason: reason, body: line.bodyBytes, routingKey: line.routingKey, detailMentions: nil,
                topology: topology, workerID: workerID)
        }
        for poison in poisons {
            guard let deadLetter = byID[poison.messageID]?.first else {
                Issue.record("\(poison.messageID) was not dead-lettered")
                continue
            }
            if poison.reason == .bodyTooLarge {
                // Never read: the worker rejected it and the broker dead-lettered it whole, with its x-death.
                let origin = DeadLetterOrigin(deadLetter, inputExchange: topology.topology.inputExchange)
                #expect(origin.reason == .bodyTooLarge)
                #expect(origin.routingKey == poison.routingKey)
                #expect(origin.exchange == topology.topology.inputExchange)
                #expect(deadLetter.body == poison.body)
            } else {
                try Self.check(
                    deadLetter, reason: poison.reason, body: poison.body, routingKey: poison.routingKey,
                    detailMentions: poison.detailMentions, topology: topology, workerID: workerID)
            }
            #expect(deadLetter.properties.contentType == poison.contentType)
            #expect(deadLetter.properties.deliveryMode == .persistent)
            #expect(deadLetter.properties.headers["traceparent"]?.stringValue?.hasPrefix("00-0af7") == true)
        }

        // A dead letter is counted once its confirm comes back, after the broker has routed it to the queue read above.
        try await waitFor("every dead letter counted") {
            try await worker.metric("responder_dead_lettered_total") >= Double(deadLetters.count)
        }
        let metrics = try await worker.metrics()
        #expect(metrics.contains(#"responder_dead_lettered_total{reason="body-too-large"} 1"#))
        #expect(metrics.contains(#"responder_dead_lettered_total{reason="invalid-field"} 3"#))
        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        #expect(try await probe.count(topology.topology.inputQueue) == 0, "nothing requeued in a loop")
        #expect(try await probe.count(topology.topology.deadLetterQueue) == 0, "nothing dead-lettered twice")

        let log = worker.logText
        #expect(log.contains("\(topology.prefix)-good-reply"), "the worker logged the good reply it handled")
        #expect(log.contains("\(topology.prefix)-private-reply"), "the worker logged the reply it refused")
        #expect(!log.contains(Self.secret) && !log.contains("flowerpot"), "typed text never reaches the log")
        #expect(!metrics.contains("flowerpot"), "typed text never reaches a metric label")
        await probe.cleanUp()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Checks one dead letter: the reason and readable detail, where it came from, who refused it, and the body
    /// exactly as published.
    static func check(
        _ deadLetter: AMQPDelivery, reason: DeadLetterReason, body: [UInt8], routingKey: String, detailMentions: String?,
        topology: TestTopology, workerID: String
    ) throws {
        let id = deadLetter.properties.messageID ?? "?"
        let headers = deadLetter.properties.jsonHeaders
        let info = try DeadLetterInfo(headers: headers)
        #expect(info.reason == reason, "\(id)")
        #expect(!info.detail.isEmpty && info.detail.count < 300, "\(id): a short readable detail, not the body: \(info.detail)")
        if let detailMentions { #expect(info.detail.contains(detailMentions), "\(id): \(info.detail)") }
        #expect(info.originalExchange == topology.topology.inputExchange, "\(id)")
        #expect(info.originalRoutingKey == routingKey, "\(id)")
        #expect(info.worker == workerID, "\(id)")
        #expect(info.attempts == 0, "\(id): refused before any try")
        #expect(deadLetter.body == body, "\(id): the body travels unchanged")
        #expect(deadLetter.routingKey == routingKey, "\(id)")
        for (name, value) in headers where name.hasPrefix("x-responder-") {
            #expect(!"\(value)".contains("flowerpot"), "\(id): typed text in \(name)")
        }
    }
}
