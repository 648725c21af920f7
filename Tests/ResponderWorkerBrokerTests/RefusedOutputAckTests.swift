import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import Testing
import WorkerHarness

/// An input settled behind one whose outputs wait for their confirms waits for them (AckTracker); when the broker
/// refuses that output instead, the input that waited is acked with the refusal, not left unacknowledged.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct RefusedOutputAckTests {
    /// Answers a notification whose identifier ends in `-answer` with a button, so it publishes an update; leaves
    /// any other notification's buttons as they are, so it publishes nothing.
    struct AnswerOrNot: NotificationContentExtension {
        struct State: Codable, Sendable {}
        static let category = "answer-category"
        let name = "answer-or-not"
        let categoryIdentifiers: Set<String> = [category]
        let initialState = State()

        func didReceive(
            _ response: NotificationResponse, context: inout ExtensionContext<State>
        ) async throws -> ResponseOption {
            if context.requestIdentifier.hasSuffix("-answer") {
                context.setNotificationActions([NotificationAction(identifier: context.eventID, title: "Done")])
            }
            return .doNotDismiss
        }
    }

    @Test func anInputWaitingBehindARefusedOutputIsAckedWithTheRefusal() async throws {
        let topology = TestTopology("refused-output", deliveryLimit: 1)
        let probe = try await QueueProbe.open(topology)
        // The output queue takes nothing: the broker nacks every update, and the worker rejects its input.
        let policy = "\(topology.prefix)-refuse-outputs"
        _ = try await TestBroker.ctl(
            "set_policy", "--apply-to", "queues", policy, "^\(topology.topology.outputQueue)$",
            #"{"max-length": 0, "overflow": "reject-publish"}"#)

        // Both are queued before the worker starts, so they arrive in one read and are handled as one batch: the
        // quiet input is settled, behind the other's publish, before the broker's nack of that publish comes back.
        let refused = "\(topology.prefix)-answer"
        let quiet = "\(topology.prefix)-quiet"
        try await probe.publish(
            [refused, quiet].map { id in
                RedGreenTaps.line(
                    RedGreenTaps.event(id: id, request: id, category: AnswerOrNot.category, action: .custom("poke")),
                    exchange: topology.topology.inputExchange)
            })
        var registry = HandlerRegistry()
        registry.register(
            NotificationCategory(
                identifier: AnswerOrNot.category, actions: [NotificationAction(identifier: "poke", title: "Poke")]))
        try registry.register(AnswerOrNot())
        let worker = try InProcessWorker(topology: topology, registry: registry)
        try await worker.waitUntilReady()

        // Rejected twice (a delivery limit of 1), the refused input is the broker's dead letter.
        _ = try await probe.takeDeadLetters(1)
        try await waitFor("the quiet input behind the refused one to be acked") {
            try await Self.unacknowledged(byConnectionsNamed: worker.workerID) == 0
        }
        try await worker.stop()
        _ = try await TestBroker.ctl("clear_policy", policy)
        await probe.cleanUp()
    }

    /// The deliveries the channels of the connections whose name contains `fragment` hold unacknowledged, as the
    /// broker's channel processes count them when asked (queue statistics lag by seconds). nil while the listing
    /// shows no channel of one of the connections, or a count it cannot read: a busy broker lists only the processes
    /// that answer in time, and a missing channel must not count as one holding nothing.
    private static func unacknowledged(byConnectionsNamed fragment: String) async throws -> Int? {
        let connections = try await TestBroker.ctl("list_connections", "--no-table-headers", "pid", "client_properties")
            .split(separator: "\n").filter { $0.contains(fragment) }.compactMap { $0.split(separator: "\t").first }
        guard !connections.isEmpty else { throw HarnessError("no connection named \(fragment)") }
        let channels = try await TestBroker.ctl("list_channels", "--no-table-headers", "connection", "messages_unacknowledged")
            .split(separator: "\n").map { $0.split(separator: "\t") }
            .filter { $0.count == 2 && connections.contains($0[0]) }
        let counts = channels.compactMap { Int($0[1]) }
        guard Set(channels.map { $0[0] }) == Set(connections), counts.count == channels.count else { return nil }
        return counts.reduce(0, +)
    }
}
