import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import Testing
import WorkerHarness

/// A worker killed with SIGKILL around a follow-up (RESPONDER_FAULT), then restarted on the same state file, handles
/// it exactly once: killed after the commit that schedules it or after publishing it, the redelivered input publishes
/// the stored follow-up again; killed after the follow-up's own commit or its update's publish, the redelivered
/// follow-up is answered from the inbox. Every update of it says one follow-up was committed, under one message id.
/// The worker is Tests/FollowUpResponderHarness, whose handler schedules a follow-up due at once on a notification's first tap.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct FollowUpCrashTests {
    @Test(arguments: zip(["after-commit", "after-commit", "after-publish", "after-publish"], [1, 2, 1, 2]))
    func killedAroundAFollowUpItIsHandledOnce(step: String, occurrence: Int) async throws {
        let topology = TestTopology("follow-up-crash")
        let probe = try await QueueProbe.open(topology)
        let state = try Paths.temporaryFolder().appendingPathComponent("state.sqlite").path
        let doomed = try WorkerProcess(
            topology: topology, statePath: state, environment: ["RESPONDER_FAULT": "\(step):\(occurrence)"],
            executable: Paths.followUpResponder)
        try await doomed.waitUntilReady()

        let request = "\(topology.prefix)-note"
        let tap = Events.response(
            id: "\(request)-tap", request: request, category: "follow-up-category", action: .custom("tap"))
        try await probe.publish(
            body: EventCodec.encode(tap),
            properties: MessageProperties(contentType: EventContentType.cloudEvents, messageID: tap.id), routingKey: request)
        #expect(try await doomed.waitForExit() == SIGKILL)
        #expect(doomed.logText.contains("RESPONDER_FAULT: \(step) reached \(occurrence) times, SIGKILL"))

        let survivor = try WorkerProcess(topology: topology, statePath: state, executable: Paths.followUpResponder)
        try await survivor.waitUntilReady()
        try await waitFor("the follow-up's update") { try await probe.count(topology.topology.outputQueue) >= 1 }
        let waiting = topology.topology.consumedQueues + topology.topology.followUpLadder.steps.map(\.exchange)
        try await waitFor("every input and follow-up settled") {
            for queue in waiting where try await probe.count(queue) > 0 { return false }
            return true
        }
        survivor.send(SIGTERM)
        #expect(try await survivor.waitForExit() == 0)

        // Once both workers are gone, whatever is left unacknowledged is back in its queue.
        for queue in waiting { #expect(try await probe.count(queue) == 0, "\(queue)") }
        let updates = try await probe.takeUpdates(1, timeout: .zero)
        #expect(!updates.isEmpty)
        for update in updates.map({ try? EventCodec.decodeActionSetUpdateEvent($0.body) }) {
            #expect(update?.data.causationId == FollowUp.id(source: tap.source, causedBy: tap.id, number: 1))
            #expect(update?.data.actions.map(\.identifier) == ["follow-ups-1"], "one follow-up committed")
        }
        #expect(Set(updates.map(\.properties.messageID)).count == 1, "a repeat carries the same message id")
        let deadLetters = try await probe.takeDeadLetters(0, timeout: .zero)
        #expect(deadLetters.isEmpty, "\(QueueProbe.describe(deadLetters))")
        await probe.cleanUp()
    }
}
