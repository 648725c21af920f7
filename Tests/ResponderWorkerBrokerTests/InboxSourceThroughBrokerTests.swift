import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import Testing
import WorkerHarness

/// The report through the real broker: CloudEvents makes an id unique per source only, so two producers'
/// events under one id are two events, each answered with its own notification's update; one producer's id reused
/// for another notification is dead-lettered for the producer to fix, never answered with the first one's update.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct InboxSourceThroughBrokerTests {
    @Test func oneIDFromTwoSourcesGivesEachNotificationItsOwnUpdate() async throws {
        let topology = TestTopology("inbox-source")
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let worker = try WorkerProcess(topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path)
        try await worker.waitUntilReady()

        let id = "\(topology.prefix)-shared-id"
        func tap(source: String, request: String) -> FixtureLine {
            var event = RedGreenTaps.event(id: id, request: "\(topology.prefix)-\(request)")
            event.source = source
            return RedGreenTaps.line(event, exchange: topology.topology.inputExchange)
        }
        try await probe.publish([tap(source: "/app-a", request: "a"), tap(source: "/app-b", request: "b")])
        let updates = try await probe.takeUpdates(2)
        #expect(
            Set(try updates.map { try EventCodec.decodeActionSetUpdateEvent($0.body).data.requestIdentifier })
                == ["\(topology.prefix)-a", "\(topology.prefix)-b"])

        // The same source's id again, for a third notification: refused, and no update goes out for it.
        let reused = tap(source: "/app-a", request: "c")
        try await probe.publish([reused])
        let deadLetter = try #require(try await probe.takeDeadLetters(1).first)
        let info = try DeadLetterInfo(headers: deadLetter.properties.jsonHeaders)
        #expect(info.reason == .eventIDReused)
        #expect(deadLetter.body == reused.bodyBytes)
        #expect(try await probe.count(topology.topology.outputQueue) == 0)
        await probe.cleanUp()
    }
}
