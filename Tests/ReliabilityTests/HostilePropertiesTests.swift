import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import ResponderIntake
import ResponderWorker
import Testing
import WorkerHarness

/// The hostile properties and headers corpus mixed into a stream of good events, through the real broker and
/// `responder run`: the worker neither dies nor reconnects, every good event gets its update, and every hostile
/// message is handled or dead-lettered with a reason, a bounded detail and a routable key.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct HostilePropertiesTests {
    @Test func hostilePropertiesAndHeadersNeitherCrashNorDisconnectTheWorker() async throws {
        let node = try BrokerNode.shared()
        let topology = TestTopology("hostile-properties")
        let probe = try await QueueProbe.open(topology)
        let state = try Paths.temporaryFolder().appendingPathComponent("state.sqlite").path
        let hostile = HostilePropertiesCorpus.messages()
        #expect(hostile.count >= 40)
        #expect(Set(hostile.map(\.name)).count == hostile.count, "corpus names must be unique")
        let good = (1...60).map { "good-\($0)" }

        let worker = try WorkerProcess(topology: topology, statePath: state)
        try await worker.waitUntilReady()
        for index in 0..<max(good.count, hostile.count) {
            if index < good.count {
                try await probe.publish(
                    body: EventCodec.encode(RedGreenTaps.event(id: good[index], request: good[index])),
                    properties: MessageProperties(contentType: EventContentType.cloudEvents, messageID: good[index]))
            }
            if index < hostile.count {
                let message = hostile[index]
                try await probe.publish(body: message.body, properties: message.properties, routingKey: message.routingKey)
            }
        }
        try await waitUntilSettled(topology, on: node, probe: probe, workers: [worker])

        let handled = hostile.filter { $0.expected == .handled }
        let refused = hostile.filter { $0.expected != .handled }
        let updates = try await probe.takeUpdates(good.count + handled.count)
        var updatesByCause: [String: AMQPDelivery] = [:]
        for update in updates {
            updatesByCause[try EventCodec.decodeActionSetUpdateEvent(update.body).data.causationId] = update
        }
        #expect(Set(updatesByCause.keys) == Set(good + handled.map { "hp-\($0.name)" }))
        for message in handled {
            let headers = updatesByCause["hp-\(message.name)"]?.properties.headers ?? [:]
            if message.name == "traceparent-valid" {
                #expect(headers["traceparent"] == .string(HostilePropertiesCorpus.validTraceparent))
                #expect(headers["tracestate"] == "vendor=value")
            } else if message.name.hasPrefix("tracestate-") {
                #expect(headers.keys == ["traceparent"], "\(message.name): a valid traceparent goes on without its state")
            } else {
                #expect(headers.isEmpty, "\(message.name): the update carries \(headers.keys)")
            }
        }

        let deadLetters = try await probe.takeDeadLetters(refused.count)
        #expect(deadLetters.count == refused.count)
        let byBody = Dictionary(deadLetters.map { ($0.body, $0) }) { first, _ in first }
        for message in refused {
            guard let letter = byBody[message.body] else {
                Issue.record("\(message.name) was not dead-lettered with its body")
                continue
            }
            let origin = DeadLetterOrigin(letter, inputExchange: topology.topology.inputExchange)
            #expect(origin.reason.map(HostilePropertiesMessage.Expected.deadLettered) == message.expected, "\(message.name)")
            #expect(letter.routingKey.utf8.count <= 255)
            if let detail = letter.properties.headers[DeadLetterInfo.Header.detail.rawValue]?.stringValue {
                #expect(detail.utf8.count <= DeadLetterInfo.maximumDetailBytes, "\(message.name): \(detail.utf8.count) bytes")
                #expect(!detail.contains(String(repeating: "t", count: 600)), "\(message.name): the detail repeats input")
            } else {
                #expect(message.expected == .deadLettered(.bodyTooLarge), "\(message.name) has no detail")
            }
        }
        let filled = byBody[hostile.first { $0.name == "headers-filling-the-frame-broken-body" }!.body]
        #expect(filled?.properties.headers["filler"] == nil, "the dead letter could not keep the input's headers")
        let forged = byBody[hostile.first { $0.name == "forged-attempts-max" }!.body]
        #expect(forged?.properties.headers[DeadLetterInfo.Header.attempts.rawValue] == .int64(3), "clamped to the retries")

        #expect(worker.isRunning, "the worker died")
        #expect(try await worker.metric("responder_reconnects_total") == 0)
        #expect(try await worker.metric("responder_dead_lettered_total") == Double(refused.count))
        #expect(try await worker.metric("responder_invalid_trace_headers_total") == 6)
        try await expectNothingLeft(topology, on: node)
        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        print(
            "reliability: \(hostile.count) messages with hostile properties among \(good.count) good ones:",
            "\(handled.count) handled, \(deadLetters.count) dead-lettered; no reconnect")
        await probe.cleanUp()
    }
}
