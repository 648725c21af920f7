import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Responder
@testable import ResponderWorker
import Testing
import WorkerHarness

/// A handler call that suspends holds only its own notification (and, in ordered mode, that notification's later
/// events): the other notifications' inputs, of its batch, of its shard and after it, are handled and acked while it
/// hangs, and it settles on its own, exactly once, when its call returns or is cut at its own deadline. The hung calls
/// wait on ``HangingHandler``'s gate, which only the test opens, so nothing here depends on timing but the cut.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct SlowHandlerThroughBrokerTests {
    enum Mode: String, CaseIterable, Sendable {
        case unordered, ordered
        var shards: Int { self == .ordered ? 2 : 0 }
    }

    @Test(arguments: Mode.allCases)
    func twoHungCallsHoldOnlyTheirNotificationsWhile400OthersAreHandledAndAcked(mode: Mode) async throws {
        let topology = TestTopology("slow-\(mode.rawValue)", retryDelays: [1], shards: mode.shards)
        // A limit no run reaches: the gate ends the calls.
        let (probe, calls, gate, worker, hung) = try await startTwoHungCalls(topology, mode, timeout: .seconds(3600))
        defer { gate.open() }
        // Ordered mode: each hung notification's next event waits behind it.
        if mode == .ordered { try await probe.publish(hung.map { poke($0, event: 2, mode, topology) }) }
        let others = (1...400).map { "\(topology.prefix)-other-\($0)" }
        try await probe.publish(others.map { poke($0, event: 1, mode, topology) })

        let updates = try await probe.takeUpdates(others.count)
        let otherEvents = others.map { mode == .ordered ? "\($0)-e1" : $0 }
        #expect(Set(updates.compactMap(\.properties.correlationID)) == Set(otherEvents), "each of the others once")
        // Acked while both calls still hang: only the hung notifications' inputs are unacknowledged.
        let held = mode == .ordered ? 4 : 2
        let node = try BrokerNode.shared()
        try await waitFor("only the hung notifications' inputs unacknowledged") {
            let counts = try await node.queueCounts(prefix: topology.prefix)
            let queues = topology.topology.consumedQueues
            return queues.map { counts[$0]?.ready ?? -1 }.allSatisfy { $0 == 0 }
                && queues.map { counts[$0]?.unacknowledged ?? 0 }.reduce(0, +) == held
        }
        for notification in hung {
            #expect(calls[request: notification] == [mode == .ordered ? "\(notification)-e1" : notification], "not yet the next")
        }

        gate.open()
        let settled = try await probe.takeUpdates(held)
        try await worker.stop()
        let causes = try settled.map { try EventCodec.decodeActionSetUpdateEvent($0.body).data.causationId }
        for notification in hung {
            let events = mode == .ordered ? ["\(notification)-e1", "\(notification)-e2"] : [notification]
            #expect(calls[request: notification] == events, "each event handled once, in order")
            #expect(causes.filter { $0.hasPrefix(notification) } == events, "settled once each, in order")
        }
        #expect(try await probe.count(topology.topology.outputQueue) == 0, "nothing more")
        #expect(try await probe.count(topology.topology.deadLetterQueue) == 0)
        for queue in topology.topology.consumedQueues { #expect(try await probe.count(queue) == 0) }
        await probe.cleanUp()
    }

    /// Two hung calls, started one after the other, are each cut at their own deadline: the second starts before the
    /// first is cut (its batch does not wait for it), and both are dead-lettered as `handler-timeout`.
    @Test(arguments: Mode.allCases)
    func twoHungCallsAreCutAtTheirOwnDeadlines(mode: Mode) async throws {
        let topology = TestTopology("slow-cut-\(mode.rawValue)", retryDelays: [], shards: mode.shards)
        let (probe, calls, gate, worker, hung) = try await startTwoHungCalls(topology, mode, timeout: .seconds(10))
        defer { gate.open() }
        // The second call started before the first one's deadline: its batch did not wait for the first call's cut.
        let ids = hung.map { mode == .ordered ? "\($0)-e1" : $0 }
        let starts = try ids.map { try #require(calls.firstCall(of: $0)) }
        #expect(starts[1] < starts[0] + .seconds(10), "b started \(starts[1] - starts[0]) after a, whose limit is 10 s")
        let deadLetters = try await probe.takeDeadLetters(hung.count)
        try await worker.stop()
        for letter in deadLetters {
            let info = try DeadLetterInfo(headers: letter.properties.jsonHeaders)
            #expect(info.reason == .handlerTimeout)
        }
        #expect(Set(deadLetters.compactMap(\.properties.messageID)) == Set(ids), "each cut once")
        #expect(hung.map { calls[request: $0].count } == [1, 1], "no retry: none configured")
        for queue in topology.topology.consumedQueues { #expect(try await probe.count(queue) == 0) }
        await probe.cleanUp()
    }

    /// Event `event` of `notification`: in ordered mode routed by the notification, with ids `<notification>-e<n>`;
    /// unordered, the event id is the notification's own (``HangingHandler`` hangs on that one).
    private func poke(_ notification: String, event: Int, _ mode: Mode, _ topology: TestTopology) -> FixtureLine {
        switch mode {
        case .ordered: return FlakyHandler.poke(notification, event: event, topology)
        case .unordered:
            let id = event == 1 ? notification : "\(notification)-e\(event)"
            return RedGreenTaps.line(
                RedGreenTaps.event(id: id, request: notification, category: FlakyHandler.category, action: .custom("poke")),
                exchange: topology.topology.inputExchange)
        }
    }

    /// A probe of `topology` and a ready worker whose ``HangingHandler`` has a limit of `timeout`, with two calls
    /// hung on its gate, started one after the other: the second from a batch of its own while the first hangs.
    private func startTwoHungCalls(
        _ topology: TestTopology, _ mode: Mode, timeout: Duration, name: String = #function
    ) async throws -> (QueueProbe, FlakyHandler.Calls, HangingHandler.Gate, InProcessWorker, [String]) {
        let probe = try await QueueProbe.open(topology, name: name)
        let calls = FlakyHandler.Calls()
        let gate = HangingHandler.Gate()
        let worker = try InProcessWorker(
            topology: topology, registry: try HangingHandler.registry(calls, gate: gate, timeout: timeout))
        try await worker.waitUntilReady()
        let hung = ["a-ignores", "b-ignores"].map { "\(topology.prefix)-\($0)" }
        do {
            for notification in hung {
                try await probe.publish([poke(notification, event: 1, mode, topology)])
                try await waitFor("\(notification)'s call") { calls[request: notification].count == 1 }
            }
        } catch {
            gate.open()
            throw error
        }
        return (probe, calls, gate, worker, hung)
    }
}
