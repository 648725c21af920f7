import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Responder
import Testing
import WorkerHarness

/// A handler past its time limit is cancelled and its input retried, through the retry queues or, in ordered mode,
/// in place; once the retries are spent it is dead-lettered as `handler-timeout`. A handler that ignores the
/// cancellation holds neither the worker nor its graceful stop. The worker runs in-process with ``HangingHandler``.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(2)))
struct HandlerTimeoutThroughBrokerTests {
    @Test func aHandlerPastItsLimitIsRetriedThenDeadLetteredAsHandlerTimeout() async throws {
        let topology = TestTopology("handler-timeout", retryDelays: [1, 1])
        let (probe, calls, gate, worker) = try await start(topology)
        defer { gate.open() }

        try await probe.publish(["sleeps", "ignores", "fine"].map { FlakyHandler.poke($0, topology) })
        let deadLetters = try await probe.takeDeadLetters(2)
        let updates = try await probe.takeUpdates(1)
        // The handlers that ignored their cancellation still wait: the stop does not wait for them.
        try await worker.stop()

        let id = { (behaviour: String) in "\(topology.prefix)-\(behaviour)" }
        #expect(calls[id("sleeps")] == 3, "one try and two retries")
        #expect(calls[id("ignores")] == 3)
        #expect(updates.map(\.properties.correlationID) == [id("fine")])
        for letter in deadLetters {
            let info = try DeadLetterInfo(headers: MessageProperties(letter.properties).headers)
            #expect(info.reason == .handlerTimeout)
            #expect(info.attempts == 3)
            #expect(info.detail.hasPrefix("handler-timeout: the extension \"hanging\" ran past its limit of 300 ms"))
        }
        #expect(Set(deadLetters.compactMap(\.properties.messageID)) == [id("sleeps"), id("ignores")])
        #expect(try await probe.count(topology.topology.inputQueue) == 0)
        for attempt in 1...2 { #expect(try await probe.count(topology.topology.retryQueue(attempt: attempt)) == 0) }
        await probe.cleanUp()
    }

    @Test func orderedModeRetriesATimeoutInPlaceWhileTheNotificationsLaterEventsWait() async throws {
        let topology = TestTopology("ordered-timeout", retryDelays: [1], shards: 2)
        let (probe, calls, gate, worker) = try await start(topology)
        defer { gate.open() }

        let request = { (behaviour: String) in "\(topology.prefix)-\(behaviour)" }
        let lines = (1...2).flatMap { event in
            ["sleeps", "ignores"].map { FlakyHandler.poke(request($0), event: event, topology) }
        }
        try await probe.publish(lines)
        let deadLetters = try await probe.takeDeadLetters(2)
        let updates = try await probe.takeUpdates(2)
        try await worker.stop()

        for behaviour in ["sleeps", "ignores"] {
            let notification = request(behaviour)
            #expect(calls[request: notification] == ["\(notification)-e1", "\(notification)-e1", "\(notification)-e2"],
                    "one try and one retry in place, then the event behind it")
        }
        let causes = try updates.map { try EventCodec.decodeActionSetUpdateEvent($0.body).data.causationId }
        #expect(Set(causes) == [request("sleeps") + "-e2", request("ignores") + "-e2"])
        for letter in deadLetters {
            let info = try DeadLetterInfo(headers: MessageProperties(letter.properties).headers)
            #expect(info.reason == .handlerTimeout)
            #expect(info.attempts == 2)
            #expect(letter.properties.headers["x-death"] == nil, "never in a retry queue")
        }
        #expect(Set(deadLetters.compactMap(\.properties.messageID)) == [request("sleeps") + "-e1", request("ignores") + "-e1"])
        for queue in topology.topology.consumedQueues { #expect(try await probe.count(queue) == 0) }
        await probe.cleanUp()
    }

    /// A probe of `topology` and a ready worker whose ``HangingHandler`` has a limit of 300 ms; open the gate at the end.
    private func start(
        _ topology: TestTopology, name: String = #function
    ) async throws -> (QueueProbe, FlakyHandler.Calls, HangingHandler.Gate, InProcessWorker) {
        let probe = try await QueueProbe.open(topology, name: name)
        let calls = FlakyHandler.Calls()
        let gate = HangingHandler.Gate()
        let worker = try InProcessWorker(
            topology: topology, registry: try HangingHandler.registry(calls, gate: gate, timeout: .milliseconds(300)))
        try await worker.waitUntilReady()
        return (probe, calls, gate, worker)
    }
}
