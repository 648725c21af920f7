import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Testing
import WorkerHarness

/// The RedGreen fixtures published to a real broker give exactly their golden updates on the output queue.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct FixturesThroughBrokerTests {
    @Test(arguments: ["rotations", "interleaved", "redelivered", "default-and-dismiss", "demo"])
    func goldenUpdatesArrive(session: String) async throws {
        let topology = TestTopology(session)
        let probe = try await QueueProbe.open(topology)
        let folder = try Paths.temporaryFolder()
        let worker = try WorkerProcess(topology: topology, statePath: folder.appendingPathComponent("state.sqlite").path)
        try await worker.waitUntilReady()

        try await probe.publish(try QueueProbe.lines(of: Paths.session(session)))
        let golden = try QueueProbe.lines(of: Paths.golden(session))
        let updates = try await probe.takeUpdates(golden.count)

        // Notifications are handled concurrently, so compare each notification's updates in order.
        func byNotification(_ bodies: [[UInt8]]) throws -> [String: [ActionSetUpdateEvent]] {
            Dictionary(grouping: try bodies.map { try EventCodec.decodeActionSetUpdateEvent($0) }) {
                $0.data.requestIdentifier
            }
        }
        #expect(try byNotification(updates.map(\.body)) == byNotification(golden.map(\.bodyBytes)))
        for update in updates {
            #expect(update.properties.deliveryMode == .persistent)
            #expect(update.properties.messageID == ActionSetUpdateEvent.id(causedBy: update.properties.correlationID ?? ""))
        }
        worker.send(SIGTERM)
        #expect(try await worker.waitForExit() == 0)
        #expect(try await probe.count(topology.topology.inputQueue) == 0)
        await probe.cleanUp()
    }
}
