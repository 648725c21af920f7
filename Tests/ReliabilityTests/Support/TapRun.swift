import AMQP
import BrokerHarness
import Foundation
import Logging
import NotificationEvents
import RedGreenExample
import Responder
import ResponderSQLite
import Testing
import WorkerHarness

/// A stream of RedGreen rotate taps on several notifications, with what it must leave behind, computed by running
/// the same inputs through the pipeline in process, one at a time, on a fresh in-memory store: the golden updates.
struct TapRun: Sendable {
    let prefix: String
    let notifications: Int
    let tapsEach: Int
    /// The inputs, in publishing order: taps round-robin over the notifications, each notification's in order.
    let lines: [FixtureLine]
    /// The golden updates of each notification, in order, by request identifier.
    let golden: [String: [ActionSetUpdateEvent]]

    init(_ topology: TestTopology, notifications: Int, tapsEach: Int) async throws {
        prefix = topology.prefix
        self.notifications = notifications
        self.tapsEach = tapsEach
        lines = RedGreenTaps.stream(
            prefix: prefix, notifications: notifications, tapsEach: tapsEach, exchange: topology.topology.inputExchange)
        let pipeline = ResponsePipeline(
            registry: RedGreen.makeRegistry(), store: InMemoryStateStore(),
            logger: .quiet)
        var golden: [String: [ActionSetUpdateEvent]] = [:]
        for line in lines {
            let outcome = await pipeline.process(InboundMessage(line))
            guard case .completed(let outputs, _) = outcome else { throw HarnessError("golden run: \(outcome)") }
            let event = try EventCodec.decodeResponseEvent(line.bodyBytes)
            for output in outputs {
                golden[event.data.notification.request.identifier, default: []].append(
                    try EventCodec.decodeActionSetUpdateEvent(output.body))
            }
        }
        self.golden = golden
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
    /// than once. Every copy of one message id must carry the same bytes. Each notification's distinct updates,
    /// taken in the order of their versions (what a push sender applies, since redelivery and several workers
    /// reorder them on the wire), must be the golden sequence: the same versions, action sets and response options,
    /// each caused by a different tap of that notification. Which tap became a notification's n-th is up to the
    /// broker once inputs are redelivered (it returns them in no set order) or shared by workers, so causes are
    /// not compared with the golden run; ``checkStore`` ties each update to the input that stored it.
    @discardableResult
    func checkUpdates(_ deliveries: [AMQPDelivery], sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        var arrived: [String: [ActionSetUpdateEvent]] = [:]
        var bodyByID: [String: [UInt8]] = [:]
        var repeats = 0
        for delivery in deliveries {
            let event = try EventCodec.decodeActionSetUpdateEvent(delivery.body)
            #expect(delivery.properties.messageID == event.id, "message id is not the update's id", sourceLocation: sourceLocation)
            if let earlier = bodyByID[event.id] {
                repeats += 1
                #expect(earlier == delivery.body, "\(event.id) arrived twice with different bytes", sourceLocation: sourceLocation)
                continue
            }
            bodyByID[event.id] = delivery.body
            arrived[event.data.requestIdentifier, default: []].append(event)
        }
        #expect(Set(arrived.keys) == Set(golden.keys), "updates of unexpected notifications", sourceLocation: sourceLocation)
        for request in requests {
            let expected = (golden[request] ?? []).map(Self.applied)
            let got = (arrived[request] ?? []).sorted { $0.data.version < $1.data.version }
            #expect(got.map(Self.applied) == expected, "\(request): updates in version order", sourceLocation: sourceLocation)
            let causes = Set(got.map(\.data.causationId))
            #expect(causes.count == got.count, "\(request): two updates with one cause", sourceLocation: sourceLocation)
            #expect(causes.allSatisfy { $0.hasPrefix(request + "-t") }, "\(request): caused by another notification's tap",
                    sourceLocation: sourceLocation)
        }
        return repeats
    }

    /// What a push sender applies from an update, in the order of versions.
    private struct Applied: Equatable, CustomStringConvertible {
        var version: Int64
        var option: ResponseOption
        var actions: [String]
        var description: String { "v\(version) \(option.rawValue) [\(actions.joined(separator: ","))]" }
    }

    private static func applied(_ update: ActionSetUpdateEvent) -> Applied {
        Applied(version: update.data.version, option: update.data.responseOption, actions: update.data.actions.map(\.identifier))
    }

    /// Checks the state store the workers shared: each notification counted exactly `tapsEach` taps and shows the
    /// golden final buttons, and every event is in the inbox once, with the outputs that reached the output queue
    /// under its update's message id (none when none arrived for it).
    func checkStore(at path: String, received: [AMQPDelivery], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let store = try SQLiteStateStore(path: path)
        defer { try? store.close() }
        try await checkStore(store, received: received, sourceLocation: sourceLocation)
    }

    /// ``checkStore(at:received:sourceLocation:)`` on a store already open (a PostgreSQL store the workers share).
    func checkStore(
        _ store: any StateStore, received: [AMQPDelivery], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for request in requests {
            let record = try #require(try await store.notification(request), "\(request) not stored",
                                      sourceLocation: sourceLocation)
            let state = try #require(record.handlerStates[RotationExtension().name], sourceLocation: sourceLocation)
            let taps = try JSONDecoder().decode(RotationExtension.State.self, from: Data(state)).taps
            #expect(taps == tapsEach, "\(request): \(taps) taps counted, \(tapsEach) sent", sourceLocation: sourceLocation)
            let finalActions = golden[request]?.last?.data.actions
            #expect(record.actions == finalActions, "\(request): final buttons", sourceLocation: sourceLocation)
        }
        var arrivedByID: [String: [UInt8]] = [:]
        for delivery in received { arrivedByID[delivery.properties.messageID ?? ""] = delivery.body }
        for event in events {
            guard case .processed(let outputs) = try await store.load(requestIdentifier: event.request, source: "/tests", eventID: event.id)
            else {
                Issue.record("\(event.id) is not in the inbox", sourceLocation: sourceLocation)
                continue
            }
            let arrived = arrivedByID[ActionSetUpdateEvent.id(causedBy: event.id)]
            #expect(outputs.map(\.body) == (arrived.map { [$0] } ?? []), "\(event.id): stored outputs", sourceLocation: sourceLocation)
        }
    }
}

extension TapRun {
    /// What redelivery or several workers did to the order of updates on the wire, for the report: how many
    /// notifications' updates arrived out of version order, and how many notifications' last arriving update is
    /// not their newest (a push sender applying updates in arrival order, ignoring versions, would show stale
    /// buttons there).
    func orderReport(_ deliveries: [AMQPDelivery]) throws -> (outOfVersionOrder: Int, lastArrivedNotNewest: Int) {
        var arrived: [String: [Int64]] = [:]
        for delivery in deliveries {
            let event = try EventCodec.decodeActionSetUpdateEvent(delivery.body)
            arrived[event.data.requestIdentifier, default: []].append(event.data.version)
        }
        let outOfOrder = arrived.values.filter { $0 != $0.sorted() }.count
        let stale = arrived.values.filter { $0.last != $0.max() }.count
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
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> RunResult {
        let result = try await finishOnBroker(
            on: node, topology: topology, probe: probe, workers: workers, sourceLocation: sourceLocation)
        try await checkStore(at: statePath, received: result.received, sourceLocation: sourceLocation)
        return result
    }

    /// ``finish(on:topology:probe:workers:statePath:sourceLocation:)`` but the store's check, for a test whose store
    /// is a parameter.
    func finishOnBroker(
        on node: BrokerNode, topology: TestTopology, probe: QueueProbe, workers: [WorkerProcess],
        sourceLocation: SourceLocation = #_sourceLocation
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
        result.repeats = try checkUpdates(result.received, sourceLocation: sourceLocation)
        try await expectNothingLeft(topology, on: node, sourceLocation: sourceLocation)
        for worker in workers { worker.send(SIGTERM) }
        for worker in workers {
            #expect(try await worker.waitForExit() == 0, "a graceful stop exits 0", sourceLocation: sourceLocation)
        }
        return result
    }
}
