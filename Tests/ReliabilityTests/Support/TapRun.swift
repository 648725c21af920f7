import AMQP
import Foundation
import Logging
import NotificationEvents
import RedGreenExample
import Responder
import Testing
import WorkerHarness

/// A stream of RedGreen rotate taps on several notifications, with what it must leave behind, computed by running
/// the same inputs through the pipeline in process, one at a time, on a fresh in-memory store: the golden updates.
struct TapRun: Sendable {
    /// One action-set update: its message id and exact bytes.
    struct Update: Sendable, Hashable {
        var messageID: String
        var body: [UInt8]
    }

    let prefix: String
    let notifications: Int
    let tapsEach: Int
    /// The inputs, in publishing order: taps round-robin over the notifications, each notification's in order.
    let lines: [FixtureLine]
    /// The golden updates of each notification, in order, by request identifier.
    let golden: [String: [Update]]
    /// The golden outputs of each event, by event id.
    let goldenOutputs: [String: [[UInt8]]]

    init(_ topology: TestTopology, notifications: Int, tapsEach: Int) async throws {
        prefix = topology.prefix
        self.notifications = notifications
        self.tapsEach = tapsEach
        lines = RedGreenTaps.stream(
            prefix: prefix, notifications: notifications, tapsEach: tapsEach, exchange: topology.topology.inputExchange)
        let pipeline = ResponsePipeline(
            registry: RedGreen.makeRegistry(), store: InMemoryStateStore(),
            logger: Logger(label: "golden") { _ in SwiftLogNoOpLogHandler() })
        var golden: [String: [Update]] = [:]
        var goldenOutputs: [String: [[UInt8]]] = [:]
        for line in lines {
            let outcome = await pipeline.process(InboundMessage(line))
            guard case .completed(let outputs, _) = outcome else { throw HarnessError("golden run: \(outcome)") }
            let event = try EventCodec.decodeResponseEvent(line.bodyBytes)
            goldenOutputs[event.id] = outputs.map(\.body)
            for output in outputs {
                golden[event.data.notification.request.identifier, default: []].append(
                    Update(messageID: output.properties.messageId ?? "", body: output.body))
            }
        }
        self.golden = golden
        self.goldenOutputs = goldenOutputs
    }

    var requests: [String] { (1...notifications).map { RedGreenTaps.request(prefix, $0) } }
    /// Every input's event id with its request identifier.
    var events: [(id: String, request: String)] {
        (1...notifications).flatMap { n in
            (1...tapsEach).map { (RedGreenTaps.tapID(prefix, n, $0), RedGreenTaps.request(prefix, n)) }
        }
    }
    var goldenUpdateCount: Int { golden.values.map(\.count).reduce(0, +) }

    /// Publishes every input to the test's input exchange, confirmed, in order.
    func publish(on probe: QueueProbe) async throws {
        try await probe.publish(lines)
    }

    /// Checks the updates that reached the output queue against the golden ones and returns how many arrived more
    /// than once. Every golden update must be there, every copy of one message id must carry the same bytes, and
    /// nothing else may be there. With `ordered`, each notification's updates, counting each message id at its
    /// first arrival, must be the golden sequence exactly, and each id must carry its golden bytes; without it
    /// (several workers, where which event is a notification's n-th tap depends on delivery), each notification
    /// must have as many distinct updates as the golden run, with the same action sets.
    @discardableResult
    func checkUpdates(
        _ deliveries: [AMQPDelivery], ordered: Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Int {
        var arrived: [String: [Update]] = [:]
        var bodyByID: [String: [UInt8]] = [:]
        var repeats = 0
        for delivery in deliveries {
            let event = try EventCodec.decodeActionSetUpdateEvent(delivery.body)
            let update = Update(messageID: delivery.properties.messageID ?? "", body: delivery.body)
            #expect(update.messageID == event.id, "message id is not the update's id", sourceLocation: sourceLocation)
            if let earlier = bodyByID[update.messageID] {
                repeats += 1
                #expect(earlier == update.body, "\(update.messageID) arrived twice with different bytes",
                        sourceLocation: sourceLocation)
                continue
            }
            bodyByID[update.messageID] = update.body
            arrived[event.data.requestIdentifier, default: []].append(update)
        }
        #expect(Set(arrived.keys) == Set(golden.keys), "updates of unexpected notifications", sourceLocation: sourceLocation)
        for request in requests {
            let expected = golden[request] ?? []
            let got = arrived[request] ?? []
            if ordered {
                #expect(got.map(\.messageID) == expected.map(\.messageID), "\(request): update sequence",
                        sourceLocation: sourceLocation)
                #expect(got == expected, "\(request): update bytes", sourceLocation: sourceLocation)
            } else {
                #expect(got.count == expected.count, "\(request): \(got.count) updates, golden \(expected.count)",
                        sourceLocation: sourceLocation)
                #expect(try Self.actionSets(got).sorted() == Self.actionSets(expected).sorted(),
                        "\(request): action sets", sourceLocation: sourceLocation)
            }
        }
        return repeats
    }

    /// Checks the state store the workers shared: each notification counted exactly `tapsEach` taps and shows the
    /// golden final buttons, and every event is in the inbox once, with its golden outputs when `ordered`.
    func checkStore(at path: String, ordered: Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let store = try SQLiteStateStore(path: path)
        defer { try? store.close() }
        for request in requests {
            let record = try #require(try await store.notification(request), "\(request) not stored",
                                      sourceLocation: sourceLocation)
            let state = try #require(record.handlerStates[RotationExtension().name], sourceLocation: sourceLocation)
            let taps = try JSONDecoder().decode(RotationExtension.State.self, from: Data(state)).taps
            #expect(taps == tapsEach, "\(request): \(taps) taps counted, \(tapsEach) sent", sourceLocation: sourceLocation)
            let finalActions = try golden[request]?.last.map {
                try EventCodec.decodeActionSetUpdateEvent($0.body).data.actions
            }
            #expect(record.actions == finalActions, "\(request): final buttons", sourceLocation: sourceLocation)
        }
        for event in events {
            guard case .processed(let outputs) = try await store.load(requestIdentifier: event.request, eventID: event.id)
            else {
                Issue.record("\(event.id) is not in the inbox", sourceLocation: sourceLocation)
                continue
            }
            if ordered {
                #expect(outputs.map(\.body) == goldenOutputs[event.id], "\(event.id): stored outputs",
                        sourceLocation: sourceLocation)
            }
        }
    }

    private static func actionSets(_ updates: [Update]) throws -> [String] {
        try updates.map {
            try EventCodec.decodeActionSetUpdateEvent($0.body).data.actions.map(\.identifier).joined(separator: ",")
        }
    }
}

extension TapRun {
    /// What several workers do to the order of updates, for the report: how many notifications' updates arrived in
    /// another order than one worker gives, and how many notifications' last arriving update does not show the
    /// buttons the store ended with (a consumer applying updates in arrival order would show stale buttons).
    func orderReport(_ deliveries: [AMQPDelivery]) throws -> (outOfGoldenOrder: Int, lastUpdateStale: Int) {
        var arrived: [String: [ActionSetUpdateEvent]] = [:]
        for delivery in deliveries {
            let event = try EventCodec.decodeActionSetUpdateEvent(delivery.body)
            arrived[event.data.requestIdentifier, default: []].append(event)
        }
        var outOfOrder = 0
        var stale = 0
        for request in requests {
            let expected = golden[request] ?? []
            let got = arrived[request] ?? []
            if got.map(\.id) != expected.map(\.messageID) { outOfOrder += 1 }
            let finalActions = try expected.last.map { try EventCodec.decodeActionSetUpdateEvent($0.body).data.actions }
            if got.last?.data.actions != finalActions { stale += 1 }
        }
        return (outOfOrder, stale)
    }
}

/// What a run left behind, for the report, once it was checked.
struct RunResult: Sendable {
    /// The updates received, repeats included, in arrival order.
    var received: [AMQPDelivery] = []
    var updates: Int { received.count }
    /// Updates received more than once (same message id, same bytes).
    var repeats = 0
    /// Inputs each worker settled, retries aside.
    var settledPerWorker: [Int] = []
    /// Inputs the workers found in the inbox: redeliveries of inputs already committed.
    var redelivered = 0
    var reconnects = 0
    var conflicts = 0
    var retried = 0
}

extension TapRun {
    /// Waits until every input is settled, then checks all the run must leave: the updates (``checkUpdates``), no
    /// input left or dead-lettered, the workers stopping gracefully (exit 0), and the shared store (``checkStore``).
    func finish(
        on node: BrokerNode, topology: TestTopology, probe: QueueProbe, workers: [WorkerProcess], statePath: String,
        ordered: Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> RunResult {
        try await waitUntilSettled(topology, on: node, probe: probe, workers: workers)
        var result = RunResult()
        for worker in workers {
            let retried = try await worker.metric(#"responder_events_total{outcome="retried"}"#)
            result.settledPerWorker.append(Int(try await worker.metric("responder_events_total") - retried))
            result.retried += Int(retried)
            result.redelivered += Int(try await worker.metric(#"responder_events_total{outcome="deduplicated"}"#))
            result.reconnects += Int(try await worker.metric("responder_reconnects_total"))
            result.conflicts += Int(try await worker.metric("responder_state_conflicts_total"))
        }
        result.received = try await probe.takeUpdates(goldenUpdateCount)
        result.repeats = try checkUpdates(result.received, ordered: ordered, sourceLocation: sourceLocation)
        try await expectNothingLeft(topology, on: node, sourceLocation: sourceLocation)
        for worker in workers { worker.send(SIGTERM) }
        for worker in workers {
            #expect(try await worker.waitForExit() == 0, "a graceful stop exits 0", sourceLocation: sourceLocation)
        }
        try await checkStore(at: statePath, ordered: ordered, sourceLocation: sourceLocation)
        return result
    }
}
