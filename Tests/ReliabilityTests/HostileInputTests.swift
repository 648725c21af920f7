import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import ResponderIntake
import ResponderWorker
import Testing
import WorkerHarness

/// The hostile corpus mixed into a stream of good events: each hostile message ends on the dead-letter queue, with
/// its body unchanged and the reason its kind calls for (a body over the limit is never read: the worker rejects it
/// and the broker dead-letters it, with `x-death` rather than a detail); every good event (odd-looking valid ones included) gets
/// its update; the worker neither dies nor reconnects, and its memory stays bounded.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct HostileInputTests {
    /// A guard against unbounded growth (10 MiB bodies, 10,000-level nesting), not a performance target.
    static let peakMemoryLimitKiB = 200 * 1024

    @Test func hostileMessagesAreDeadLetteredWhileGoodOnesAreProcessed() async throws {
        let node = try BrokerNode.shared()
        let topology = TestTopology("hostile")
        let probe = try await QueueProbe.open(topology)
        let state = try Paths.temporaryFolder().appendingPathComponent("state.sqlite").path
        let hostile = try HostileCorpus.messages()
        #expect(hostile.count >= 50)
        #expect(Set(hostile.map(\.name)).count == hostile.count, "corpus names must be unique")
        let good = try (1...100).map { n in
            (id: "good-\(n)", body: EventCodec.encode(RedGreenTaps.event(id: "good-\(n)", request: "good-\(n)")),
             contentType: Optional(EventContentType.cloudEvents))
        } + HostileCorpus.tolerated()

        let worker = try WorkerProcess(topology: topology, statePath: state)
        try await worker.waitUntilReady()
        let memoryAtStart = try worker.memory()
        // Alternate good and hostile messages (there are more good ones), so each hostile one has good neighbours.
        for index in 0..<max(good.count, hostile.count) {
            if index < good.count {
                try await probe.publish(
                    body: good[index].body,
                    properties: MessageProperties(
                        contentType: good[index].contentType, messageID: "good:\(good[index].id)", deliveryMode: .persistent))
            }
            if index < hostile.count {
                let message = hostile[index]
                try await probe.publish(
                    body: message.body,
                    properties: MessageProperties(
                        contentType: message.contentType, contentEncoding: message.contentEncoding,
                        messageID: "hostile:\(message.name)", deliveryMode: .persistent))
            }
        }
        try await waitUntilSettled(topology, on: node, probe: probe, workers: [worker])

        let deadLetters = try await probe.takeDeadLetters(hostile.count)
        let byName = Dictionary(deadLetters.map { ($0.properties.messageID ?? "", $0) }) { first, _ in first }
        #expect(deadLetters.count == hostile.count)
        for message in hostile {
            guard let deadLetter = byName["hostile:\(message.name)"] else {
                Issue.record("\(message.name) was not dead-lettered")
                continue
            }
            let reason = DeadLetterOrigin(deadLetter, inputExchange: topology.topology.inputExchange).reason
            #expect(reason == message.expected, "\(message.name): \(reason?.rawValue ?? "no reason"), expected \(message.expected.rawValue)")
            #expect(deadLetter.body == message.body, "\(message.name): the dead letter's body is not the original")
            if message.expected != .bodyTooLarge {
                #expect(deadLetter.properties.headers[DeadLetterInfo.Header.detail.rawValue]?.stringValue?.isEmpty == false)
            }
        }

        let updates = try await probe.takeUpdates(good.count)
        let causes = Set(try updates.map { try EventCodec.decodeActionSetUpdateEvent($0.body).data.causationId })
        #expect(updates.count == good.count)
        #expect(causes == Set(good.map(\.id)))

        let memoryAtEnd = try worker.memory()
        #expect(worker.isRunning, "the worker died")
        #expect(try await worker.metric("responder_reconnects_total") == 0)
        #expect(try await worker.metric("responder_dead_lettered_total") == Double(hostile.count))
        #expect(memoryAtEnd.peak < Self.peakMemoryLimitKiB, "peak RSS \(memoryAtEnd.peak) KiB")
        try await expectNothingLeft(topology, on: node)
        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        print(
            "reliability: \(hostile.count) hostile messages among \(good.count) good ones: \(deadLetters.count) dead-lettered,",
            "\(updates.count) updates; RSS \(memoryAtStart.resident) KiB at start, \(memoryAtEnd.resident) KiB at the end,",
            "peak \(memoryAtEnd.peak) KiB; no reconnect")
        await probe.cleanUp()
    }
}
