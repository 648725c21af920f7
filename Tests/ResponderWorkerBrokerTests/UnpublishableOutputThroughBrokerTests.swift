import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import ResponderSQLite
import Testing
import WorkerHarness

/// No state without its outputs, through the real broker: an event whose update the connection could never carry
/// (an id of 250 bytes makes the update's message-id 266 bytes) is dead-lettered as unpublishable before anything
/// is committed, so the notification's next event gives the update of its first stored version.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct UnpublishableOutputThroughBrokerTests {
    @Test func anUnpublishableEventIsDeadLetteredWithNothingStored() async throws {
        let topology = TestTopology("unpublishable")
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let statePath = folder.appendingPathComponent("state.sqlite").path
        let worker = try WorkerProcess(topology: topology, statePath: statePath)
        try await worker.waitUntilReady()

        let request = "\(topology.prefix)-note"
        let longID = String(repeating: "x", count: 250)
        let long = RedGreenTaps.line(
            RedGreenTaps.event(id: longID, request: request), exchange: topology.topology.inputExchange)
        try await probe.publish([long])
        let deadLetter = try #require(try await probe.takeDeadLetters(1).first)
        let info = try DeadLetterInfo(headers: deadLetter.properties.jsonHeaders)
        #expect(info.reason == .unpublishable)
        #expect(info.detail.contains("the message-id property has 266 bytes, over 255"), "\(info.detail)")
        #expect(deadLetter.body == long.bodyBytes)

        let valid = RedGreenTaps.line(
            RedGreenTaps.event(id: "\(topology.prefix)-valid", request: request),
            exchange: topology.topology.inputExchange)
        try await probe.publish([valid])
        let updates = try await probe.takeUpdates(1)
        #expect(
            try updates.map { try EventCodec.decodeActionSetUpdateEvent($0.body).data.version } == [1],
            "the long event stored nothing, so this one starts the notification")
        let store = try SQLiteStateStore(path: statePath)
        #expect(try await store.notification(request)?.version == 1)
        guard case .unprocessed = try await store.load(requestIdentifier: request, source: "/tests", eventID: longID)
        else {
            Issue.record("the unpublishable event is in the inbox")
            return
        }
        try store.close()
        await probe.cleanUp()
    }
}
