import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import RedGreenExample
import Responder
import ResponderSQLite
import Testing
import WorkerHarness

/// A stream where order matters: RedGreen rotate taps with resets between them on many notifications, published
/// round-robin with the request identifier as routing key (ordered mode's contract), and what a serial replay of
/// the same fixture (`responder replay` into a state file of its own) makes of it: the golden updates of each
/// notification in order, and its final buttons and tap count. A reset handled before the taps that preceded it,
/// or a tap after it, leaves another count and other buttons.
struct OrderedRun: Sendable {
    let prefix: String
    let notifications: Int
    let eventsEach: Int
    /// The inputs, in publishing order.
    let lines: [FixtureLine]
    /// Each notification's updates from the serial replay, in order, by request identifier.
    let golden: [String: [Applied]]
    /// The serial replay's state file.
    let goldenState: String

    /// What a push sender applies from an update, with the event that caused it.
    struct Applied: Equatable, Sendable, CustomStringConvertible {
        var cause: String
        var version: Int64
        var actions: [String]
        var description: String { "\(cause) v\(version) [\(actions.joined(separator: ","))]" }

        init(_ update: ActionSetUpdateEvent) {
            cause = update.data.causationId
            version = update.data.version
            actions = update.data.actions.map(\.identifier)
        }
    }

    /// Whether event `event` (1-based) of notification `notification` is a reset; the others are rotate taps. The
    /// resets fall at other places on each notification, so some end on taps and some on a reset.
    static func isReset(notification: Int, event: Int) -> Bool { (event + notification) % 7 == 0 }

    init(_ topology: TestTopology, notifications: Int, eventsEach: Int) async throws {
        prefix = topology.prefix
        self.notifications = notifications
        self.eventsEach = eventsEach
        let exchange = topology.topology.inputExchange
        lines = (1...eventsEach).flatMap { event in
            (1...notifications).map { notification in
                let request = RedGreenTaps.request(topology.prefix, notification)
                let response = RedGreenTaps.event(
                    id: RedGreenTaps.tapID(topology.prefix, notification, event), request: request,
                    action: .custom(
                        Self.isReset(notification: notification, event: event)
                            ? RedGreen.resetActionIdentifier : RedGreen.rotateActionIdentifier))
                return RedGreenTaps.line(
                    body: EventCodec.encode(response), messageID: response.id, routingKey: request, exchange: exchange)
            }
        }
        let folder = try Paths.temporaryFolder("ordered-golden")
        let fixture = folder.appendingPathComponent("stream.jsonl")
        let out = folder.appendingPathComponent("golden.jsonl")
        goldenState = folder.appendingPathComponent("golden.sqlite").path
        try Data(lines.flatMap { EventCodec.encode($0) + Array("\n".utf8) }).write(to: fixture)
        let replay = try await ChildProcess.run(
            Paths.responder, arguments: ["replay", fixture.path, "--state", goldenState, "--out", out.path])
        guard replay.status == 0 else { throw HarnessError("responder replay: \(replay.output)") }
        var golden: [String: [Applied]] = [:]
        for line in try QueueProbe.lines(of: out) {
            let update = try EventCodec.decodeActionSetUpdateEvent(line.bodyBytes)
            golden[update.data.requestIdentifier, default: []].append(Applied(update))
        }
        self.golden = golden
    }

    var requests: [String] { (1...notifications).map { RedGreenTaps.request(prefix, $0) } }
    var goldenUpdateCount: Int { golden.values.map(\.count).reduce(0, +) }

    /// How a run's outcome compares with the serial replay, per notification.
    struct Comparison: Sendable {
        /// Notifications whose distinct updates, in arrival order, are not the golden ones.
        var differentUpdates: [String] = []
        /// Notifications whose final buttons or tap count in the store are not the replay's.
        var differentFinalState: [String] = []
        /// Updates that arrived more than once (same message id); each must carry the same bytes.
        var repeats = 0
        /// The first difference, for the failure message.
        var example = "none"
    }

    /// Compares the updates that arrived (repeats dropped, first arrival kept) and the SQLite store at `statePath`
    /// with the serial replay.
    func compare(_ deliveries: [AMQPDelivery], statePath: String) async throws -> Comparison {
        let store = try SQLiteStateStore(path: statePath)
        defer { try? store.close() }
        return try await compare(deliveries, store: store)
    }

    /// Compares the updates that arrived (repeats dropped, first arrival kept) and `store` with the serial replay.
    func compare(_ deliveries: [AMQPDelivery], store: any StateStore) async throws -> Comparison {
        var comparison = Comparison()
        var arrived: [String: [Applied]] = [:]
        var bodyByID: [String: [UInt8]] = [:]
        for delivery in deliveries {
            let update = try EventCodec.decodeActionSetUpdateEvent(delivery.body)
            if let earlier = bodyByID[update.id] {
                comparison.repeats += 1
                #expect(earlier == delivery.body, "\(update.id) arrived twice with different bytes")
                continue
            }
            bodyByID[update.id] = delivery.body
            arrived[update.data.requestIdentifier, default: []].append(Applied(update))
        }
        for request in requests where arrived[request] ?? [] != golden[request] ?? [] {
            if comparison.differentUpdates.isEmpty {
                comparison.example = "\(request): arrived \(arrived[request] ?? []), replay \(golden[request] ?? [])"
            }
            comparison.differentUpdates.append(request)
        }
        let replayed = try SQLiteStateStore(path: goldenState)
        defer { try? replayed.close() }
        for request in requests {
            let got = try await store.notification(request)
            let expected = try await replayed.notification(request)
            if got?.actions != expected?.actions || got?.handlerStates != expected?.handlerStates {
                comparison.differentFinalState.append(request)
            }
        }
        return comparison
    }
}
