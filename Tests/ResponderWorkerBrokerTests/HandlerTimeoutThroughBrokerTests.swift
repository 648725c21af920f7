import AMQP
import BrokerHarness
import Foundation
import NotificationEvents
import Responder
@testable import ResponderWorker
import Testing
import WorkerHarness

/// A handler past its time limit is cancelled and its input retried, through the retry queues or, in ordered mode,
/// in place; once the retries are spent it is dead-lettered as `handler-timeout`. A handler that ignores the
/// cancellation holds neither the worker nor its graceful stop. The worker runs in-process with ``HangingHandler``.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
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
            let info = try DeadLetterInfo(headers: letter.properties.jsonHeaders)
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
            let info = try DeadLetterInfo(headers: letter.properties.jsonHeaders)
            #expect(info.reason == .handlerTimeout)
            #expect(info.attempts == 2)
            #expect(letter.properties.headers["x-death"] == nil, "never in a retry queue")
        }
        #expect(Set(deadLetters.compactMap(\.properties.messageID)) == [request("sleeps") + "-e1", request("ignores") + "-e1"])
        for queue in topology.topology.consumedQueues { #expect(try await probe.count(queue) == 0) }
        await probe.cleanUp()
    }

    /// Calls cut off that ignore their cancellation and still run, at `--max-abandoned-calls`, pause the worker as an
    /// unavailable dependency does: no more handler calls, inputs handed back uncounted, `/health/ready` 503, until
    /// the calls end; then every input is handled once.
    @Test func callsCutOffThatStillRunPauseTheWorkerAtTheirLimit() async throws {
        let topology = TestTopology("abandoned-calls", retryDelays: [1, 1])
        var pipeline = PipelineConfiguration()
        pipeline.maxAbandonedCalls = 2
        let (probe, calls, gate, worker) = try await start(
            topology, pipeline: pipeline, backoff: Backoff(initial: .milliseconds(20), maximum: .milliseconds(100)))
        defer { gate.open() }

        let hanging = ["one-ignores", "two-ignores"]
        try await probe.publish(hanging.map { FlakyHandler.poke($0, topology) })
        try await waitFor("the worker to pause at the limit of calls cut off") {
            worker.readiness.currentObstacles == [.dependencyUnavailable]
        }
        // Published during the pause: their handler is never called while the calls cut off still run, and every
        // input goes back to the queues uncounted, again and again, instead of through the retries to the dead letters.
        let fine = ["fine-1", "fine-2", "fine-3"]
        try await probe.publish(fine.map { FlakyHandler.poke($0, topology) })
        let queues = [topology.topology.inputQueue] + (1...2).map { topology.topology.retryQueue(attempt: $0) }
        try await waitFor("every input back in the queues") {
            var waiting = 0
            for queue in queues { waiting += try await probe.count(queue) }
            return waiting == hanging.count + fine.count
        }
        let id = { (behaviour: String) in "\(topology.prefix)-\(behaviour)" }
        #expect(hanging.map { calls[id($0)] } == [1, 1], "not called again at the limit")
        #expect(fine.map { calls[id($0)] } == [0, 0, 0])
        #expect(try await probe.count(topology.topology.deadLetterQueue) == 0)

        gate.open()
        let updates = try await probe.takeUpdates(hanging.count + fine.count)
        try await waitFor("the worker to be ready again") { worker.readiness.isReady }
        try await worker.stop()
        #expect(Set(updates.compactMap(\.properties.correlationID)) == Set((hanging + fine).map(id)), "each input once")
        #expect(hanging.map { calls[id($0)] } == [2, 2], "cut off once, then answered")
        #expect(try await probe.count(topology.topology.deadLetterQueue) == 0)
        await probe.cleanUp()
    }

    /// A probe of `topology` and a ready worker whose ``HangingHandler`` has a limit of 300 ms, running its pipeline
    /// with `pipeline` and probing an outage after `backoff`; open the gate at the end.
    private func start(
        _ topology: TestTopology, pipeline: PipelineConfiguration = PipelineConfiguration(),
        backoff: Backoff = Backoff(initial: .seconds(1), maximum: .seconds(30)), name: String = #function
    ) async throws -> (QueueProbe, FlakyHandler.Calls, HangingHandler.Gate, InProcessWorker) {
        let probe = try await QueueProbe.open(topology, name: name)
        let calls = FlakyHandler.Calls()
        let gate = HangingHandler.Gate()
        let worker = try InProcessWorker(
            topology: topology, registry: try HangingHandler.registry(calls, gate: gate, timeout: .milliseconds(300)),
            storeRetryBackoff: backoff, pipeline: pipeline)
        try await worker.waitUntilReady()
        return (probe, calls, gate, worker)
    }
}
