import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import ResponderWorker
import Testing
import WorkerHarness

/// `responder redrive` moves dead letters back to the input exchange with the routing key they were first delivered
/// with, without their failure headers, each confirmed there before it leaves the dead-letter queue; with `--reason`, only those of one reason.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct RedriveCommandTests {
    /// One dead letter as the worker (or the broker, for the delivery limit) leaves it.
    struct DeadLetter {
        var messageID: String
        var reason: DeadLetterReason
        var routingKey: String
    }

    static let deadLetters = [
        DeadLetter(messageID: "dl-1", reason: .invalidField, routingKey: "red-category"),
        DeadLetter(messageID: "dl-2", reason: .unknownType, routingKey: "green-category"),
        DeadLetter(messageID: "dl-3", reason: .invalidField, routingKey: "green-category"),
        DeadLetter(messageID: "dl-4", reason: .deliveryLimitExceeded, routingKey: "red-category"),
        DeadLetter(messageID: "dl-5", reason: .retriesExhausted, routingKey: "red-category.watch"),
        DeadLetter(messageID: "dl-6", reason: .invalidField, routingKey: "red-category"),
    ]

    static func body(_ messageID: String) -> [UInt8] { Array(#"{"id":"\#(messageID)","note":"kept as sent"}"#.utf8) }

    /// Publishes `deadLetters` to the test's dead-letter exchange with the headers they would have, originally
    /// published to `exchange`.
    static func fill(_ probe: QueueProbe, exchange: String, _ deadLetters: [DeadLetter] = deadLetters) async throws {
        let topology = probe.topology.topology
        for deadLetter in deadLetters {
            var properties = MessageProperties()
            properties.messageID = deadLetter.messageID
            properties.contentType = "application/cloudevents+json"
            properties.deliveryMode = .persistent
            properties.headers["traceparent"] = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
            var routingKey = deadLetter.routingKey
            if deadLetter.reason == .deliveryLimitExceeded {
                // The broker dead-letters with x-death and the input queue's name as the routing key.
                properties.headers["x-death"] = .array([
                    .table([
                        "count": .int64(1), "reason": "delivery_limit", "queue": .string(topology.inputQueue),
                        "exchange": .string(exchange), "routing-keys": .array([.string(deadLetter.routingKey)]),
                    ])
                ])
                routingKey = topology.inputQueue
            } else {
                let info = DeadLetterInfo(
                    reason: deadLetter.reason, detail: "what went wrong", originalExchange: exchange,
                    originalRoutingKey: deadLetter.routingKey, attempts: 0, firstFailure: Date(), lastFailure: Date(),
                    worker: "worker-1")
                for (name, value) in info.headers { properties.headers[name] = FieldValue(value) }
            }
            try await probe.channel.publish(
                body(deadLetter.messageID), exchange: topology.deadLetterExchange, routingKey: routingKey,
                properties: properties)
        }
    }

    static func environment(_ topology: TestTopology) -> [String: String] {
        topology.environment.merging(["RESPONDER_AMQP_URL": TestBroker.url ?? ""]) { $1 }
    }

    /// Checks messages back on the input queue: as sent, routed by their first routing key, no failure headers.
    static func checkRedriven(_ messages: [AMQPDelivery], _ expected: [DeadLetter]) {
        #expect(Set(messages.compactMap(\.properties.messageID)) == Set(expected.map(\.messageID)))
        for message in messages {
            let id = message.properties.messageID ?? ""
            guard let original = expected.first(where: { $0.messageID == id }) else { continue }
            #expect(message.body == body(id))
            #expect(message.routingKey == original.routingKey, "\(id)")
            let headers = message.properties.headers.keys
            #expect(headers.contains("traceparent"), "\(id): the producer's headers stay")
            #expect(
                !headers.contains { $0.hasPrefix("x-responder-") || $0.hasPrefix("x-death") || $0.hasPrefix("x-first-death") || $0.hasPrefix("x-last-death") },
                "\(id): no failure headers: \(headers)")
            #expect(message.properties.contentType == "application/cloudevents+json")
            #expect(message.properties.deliveryMode == .persistent)
        }
    }

    /// Waits until the dead-letter queue holds `count` messages again. `redrive` reads dead letters and leaves
    /// those it does not move unacknowledged; they go back to the queue only once the broker has closed its
    /// connection, after the tool has exited. One moved would never be back, and the wait would fail.
    static func waitUntilBack(_ count: Int, _ probe: QueueProbe, _ what: String) async throws {
        try await waitFor(what) { try await probe.count(probe.topology.topology.deadLetterQueue) == count }
    }

    @Test func movesEveryDeadLetterBackToTheInput() async throws {
        let topology = TestTopology("redrive")
        let probe = try await QueueProbe.open(topology)
        try await Self.fill(probe, exchange: topology.topology.inputExchange)
        try await waitFor("the dead letters") { try await probe.count(topology.topology.deadLetterQueue) == Self.deadLetters.count }

        let result = try await Tool.run(["redrive"], environment: Self.environment(topology))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("redrive: moved 6, left 0"))
        #expect(result.stdout.contains("moving dl-4  delivery-limit-exceeded  → \(topology.topology.inputExchange) [red-category]"))
        #expect(try await probe.count(topology.topology.deadLetterQueue) == 0)
        Self.checkRedriven(try await probe.take(Self.deadLetters.count, from: topology.topology.inputQueue), Self.deadLetters)
        await probe.cleanUp()
    }

    @Test func movesOnlyTheReasonAskedForAndKeepsTheOthersInOrder() async throws {
        let topology = TestTopology("redrive-reason")
        let probe = try await QueueProbe.open(topology)
        try await Self.fill(probe, exchange: topology.topology.inputExchange)
        try await waitFor("the dead letters") { try await probe.count(topology.topology.deadLetterQueue) == Self.deadLetters.count }

        let dryRun = try await Tool.run(["redrive", "--reason", "invalid-field", "--dry-run"], environment: Self.environment(topology))
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stdout.split(separator: "\n").count == 3)
        try await Self.waitUntilBack(Self.deadLetters.count, probe, "a dry run moves nothing")

        let result = try await Tool.run(["redrive", "--reason", "invalid-field"], environment: Self.environment(topology))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("redrive: moved 3, left 3"))
        let invalid = Self.deadLetters.filter { $0.reason == .invalidField }
        Self.checkRedriven(try await probe.take(invalid.count, from: topology.topology.inputQueue), invalid)
        let kept = try await probe.take(3, from: topology.topology.deadLetterQueue)
        #expect(kept.compactMap(\.properties.messageID) == ["dl-2", "dl-4", "dl-5"], "the others stay, in order")
        #expect(kept.allSatisfy { $0.properties.headers["x-responder-reason"] != nil || $0.properties.headers["x-death"] != nil })
        await probe.cleanUp()
    }

    /// A producer allowed to publish only to the input exchange sends poison naming, as its original exchange, the
    /// output exchange (the push sender would deliver it) or the default exchange with another queue's name. Once
    /// the worker dead-lettered them, a redrive brings both back to the input queue and nowhere else.
    @Test func aForgedOriginalExchangeDoesNotTakeARedriveOutsideTheInput() async throws {
        let topology = TestTopology("redrive-forged")
        let probe = try await QueueProbe.open(topology)
        let otherQueue = "\(topology.prefix).someone-elses"
        _ = try await probe.channel.declareQueue(otherQueue, durable: false)
        let folder = try Paths.temporaryFolder()
        let worker = try WorkerProcess(topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path)
        try await worker.waitUntilReady()
        let forgeries: [(messageID: String, exchange: String, routingKey: String)] = [
            ("forged-output", topology.topology.outputExchange, "red-category"),
            ("forged-default", "", otherQueue),
        ]
        for forgery in forgeries {
            var properties = MessageProperties()
            properties.messageID = forgery.messageID
            properties.headers = [
                "x-responder-original-exchange": .string(forgery.exchange),
                "x-responder-original-routing-key": .string(forgery.routingKey),
            ]
            try await probe.publish(body: Array("not JSON".utf8), properties: properties, routingKey: "red-category")
        }
        try await waitFor("the dead letters") { try await probe.count(topology.topology.deadLetterQueue) == forgeries.count }
        // Stopped, so what comes back to the input queue stays there to be counted.
        worker.send(SIGTERM)
        try await worker.waitForExit()

        let dryRun = try await Tool.run(["redrive", "--dry-run"], environment: Self.environment(topology))
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        for forgery in forgeries {
            #expect(
                dryRun.stdout.contains(
                    "would move \(forgery.messageID)  malformed-json  → \(topology.topology.inputExchange) [red-category]"),
                "\(dryRun.stdout)")
        }
        try await Self.waitUntilBack(forgeries.count, probe, "a dry run moves nothing")
        let result = try await Tool.run(["redrive"], environment: Self.environment(topology))
        #expect(result.status == 0, "\(result.stderr)")
        let back = try await probe.take(forgeries.count, from: topology.topology.inputQueue)
        #expect(Set(back.compactMap(\.properties.messageID)) == Set(forgeries.map(\.messageID)))
        #expect(back.allSatisfy { $0.exchange == topology.topology.inputExchange && $0.routingKey == "red-category" })
        #expect(try await probe.count(topology.topology.outputQueue) == 0, "nothing reaches the push sender")
        #expect(try await probe.count(otherQueue) == 0, "nothing reaches another queue")
        _ = try await probe.channel.deleteQueue(otherQueue)
        await probe.cleanUp()
    }

    @Test func aDeadLetterThatCannotBeRepublishedStaysWhereItIs() async throws {
        let topology = TestTopology("redrive-unroutable")
        let probe = try await QueueProbe.open(topology)
        try await Self.fill(
            probe, exchange: topology.topology.inputExchange, Array(Self.deadLetters.prefix(2) + Self.deadLetters.suffix(2)))
        try await waitFor("the dead letters") { try await probe.count(topology.topology.deadLetterQueue) == 4 }
        // The input exchange routes nowhere without its queue: the broker returns the republished message instead
        // of confirming it.
        try await probe.channel.deleteQueue(topology.topology.inputQueue)

        let result = try await Tool.run(["redrive"], environment: Self.environment(topology))
        #expect(result.status != 0, "a returned republish is a failure")
        let kept = try await probe.take(4, from: topology.topology.deadLetterQueue)
        #expect(kept.compactMap(\.properties.messageID) == ["dl-1", "dl-2", "dl-5", "dl-6"], "nothing lost, nothing moved")
        await probe.cleanUp()
    }
}
