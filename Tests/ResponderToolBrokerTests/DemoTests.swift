import BrokerHarness
import Foundation
import NotificationEvents
import Testing
import WorkerHarness

/// `scripts/demo --non-interactive` runs the RedGreen flow end to end on a throwaway broker of its own and prints
/// each update as a person reads it.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct DemoTests {
    /// The line the demo prints for an update: the notification, the event that caused it (without the
    /// notification's prefix), and the buttons.
    static func line(_ update: ActionSetUpdateEvent) -> String {
        let request = update.data.requestIdentifier
        let cause = update.data.causationId.replacingOccurrences(of: request + "/", with: "")
        return "\(request)  \(cause)  →  " + update.data.actions.map { "[\($0.title)]" }.joined(separator: " ")
    }

    static func byNotification(_ lines: [String]) -> [String: [String]] {
        Dictionary(grouping: lines) { String($0.prefix { $0 != " " }) }
    }

    @Test func theDemoPrintsTheGoldenUpdates() async throws {
        let golden = try QueueProbe.lines(of: Paths.golden("demo")).map {
            try EventCodec.decodeActionSetUpdateEvent($0.bodyBytes)
        }
        let expected = golden.map(Self.line)
        #expect(expected.count == 6)
        #expect(expected.first == "red-0001  tap-1  →  [Rotate 20°] [Reset rotation]")

        let result = try await Tool.run(
            ["--non-interactive"],
            environment: [
                "DEMO_BINARY": Paths.responder.path, "DEMO_BROKER_PORT": "5688",
                "DEMO_METRICS_PORT": String(try FreePort.find()),
            ],
            executable: Paths.root.appendingPathComponent("scripts/demo"))
        #expect(result.status == 0, "\(result.stderr)")
        let printed = result.stdout.split(separator: "\n").map(String.init)
        #expect(printed.count == expected.count, "\(printed)")
        // Notifications are handled side by side, so only each notification's own order is fixed.
        #expect(Self.byNotification(printed) == Self.byNotification(expected), "\(printed)")
        #expect(result.stderr.contains("worker stopped cleanly"))
    }
}
