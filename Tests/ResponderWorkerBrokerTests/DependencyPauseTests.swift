import AMQP
import BrokerHarness
import Foundation
import Logging
import NotificationEvents
import Responder
@testable import ResponderWorker
import Synchronization
import Testing
import WorkerHarness

/// A handler whose dependency is down pauses the worker as an unavailable store does: its inputs go back to the queue
/// uncounted instead of through the retry queues to the dead-letter queue, `/health/ready` says why, and the worker
/// probes with the next inputs until the dependency answers, then handles every input once.
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct DependencyPauseTests {
    /// The flaky category's handler, failing with ``DependencyUnavailable`` while `down`; counts its calls.
    struct DependentHandler: NotificationContentExtension {
        struct State: Codable, Sendable {}

        let name = "dependent"
        let categoryIdentifiers: Set<String> = [FlakyHandler.category]
        let initialState = State()
        let down: Dependency

        final class Dependency: Sendable {
            private let isDown = Atomic<Bool>(true)
            private let callCount = Atomic<Int>(0)
            var calls: Int { callCount.load(ordering: .relaxed) }
            func comeBack() { isDown.store(false, ordering: .relaxed) }
            /// Counts a call; true while the dependency is down.
            func call() -> Bool {
                callCount.add(1, ordering: .relaxed)
                return isDown.load(ordering: .relaxed)
            }
        }

        func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<State>) async throws -> ResponseOption {
            if down.call() { throw DependencyUnavailable("the test API") }
            context.setNotificationActions([NotificationAction(identifier: context.eventID, title: "Done")])
            return .doNotDismiss
        }
    }

    @Test func theQueueWaitsWhileTheDependencyIsDownAndDrainsOnceWhenItComesBack() async throws {
        // A delivery limit of 1: a requeue would dead-letter an input on its second trip (StorePauseTests' control).
        let topology = TestTopology("dependency-pause", retryDelays: [1], deliveryLimit: 1)
        let (probe, dependency, worker) = try await start(topology)

        let inputs = 20
        let pokes = (1...inputs).map { FlakyHandler.poke("fine-\($0)", topology) }
        try await probe.publish(pokes)
        try await waitFor("the worker to pause for the dependency") {
            worker.readiness.currentObstacles == [.dependencyUnavailable]
        }
        // It goes on probing with the next inputs, and they go back each time: well past the inputs' number of
        // calls, nothing was dead-lettered and every input is in the input queue or (the few failures before the
        // pause) a retry queue.
        let probed = dependency.calls + 3 * inputs
        try await waitFor("the worker to probe the dependency again and again") { dependency.calls >= probed }
        #expect(worker.readiness.currentObstacles == [.dependencyUnavailable])
        try await waitFor("every input back in the queues") {
            try await probe.count(topology.topology.inputQueue) + probe.count(topology.topology.retryQueue(attempt: 1))
                == inputs
        }
        #expect(try await probe.count(topology.topology.deadLetterQueue) == 0)

        dependency.comeBack()
        let updates = try await probe.takeUpdates(inputs)
        try await waitFor("the worker to be ready again") { worker.readiness.isReady }
        try await worker.stop()

        #expect(updates.count == inputs, "one update per input, none twice")
        #expect(Set(updates.compactMap(\.properties.correlationID)) == Set(pokes.compactMap(\.properties.messageID)))
        #expect(try await probe.count(topology.topology.deadLetterQueue) == 0, "the outage cost no input its retries")
        #expect(try await probe.count(topology.topology.inputQueue) == 0)
        await probe.cleanUp()
    }

    @Test func orderedModeHoldsTheInputsInPlaceWhileTheDependencyIsDown() async throws {
        let topology = TestTopology("ordered-dependency", retryDelays: [1], shards: 2)
        let (probe, dependency, worker) = try await start(topology)

        // Six notifications, two events each: the first events fail on six different events, past the threshold.
        let notifications = (1...6).map { "\(topology.prefix)-note-\($0)" }
        try await probe.publish((1...2).flatMap { event in notifications.map { FlakyHandler.poke($0, event: event, topology) } })
        try await waitFor("the worker to pause for the dependency") {
            worker.readiness.currentObstacles == [.dependencyUnavailable]
        }
        // It probes again and again with the inputs it holds, which wait in place: nothing leaves the shards.
        let probed = dependency.calls + 20
        try await waitFor("the worker to probe the dependency again and again") { dependency.calls >= probed }
        #expect(try await probe.count(topology.topology.deadLetterQueue) == 0)

        dependency.comeBack()
        let updates = try await probe.takeUpdates(notifications.count * 2)
        try await worker.stop()
        let causes = try updates.map { try EventCodec.decodeActionSetUpdateEvent($0.body).data.causationId }
        for notification in notifications {
            #expect(causes.filter { $0.hasPrefix(notification + "-") } == ["\(notification)-e1", "\(notification)-e2"],
                    "each event once, in order")
        }
        #expect(try await probe.count(topology.topology.deadLetterQueue) == 0)
        for queue in topology.topology.consumedQueues { #expect(try await probe.count(queue) == 0) }
        await probe.cleanUp()
    }

    /// The steady category's handler, whose dependency never fails: each call shows a button named after the event.
    struct SteadyHandler: NotificationContentExtension {
        struct State: Codable, Sendable {}

        static let category = "steady-category"

        let name = "steady"
        let categoryIdentifiers: Set<String> = [category]
        let initialState = State()

        func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<State>) async throws -> ResponseOption {
            context.setNotificationActions([NotificationAction(identifier: context.eventID, title: "Done")])
            return .doNotDismiss
        }

        /// A poke on notification `<prefix>-steady-<number>`, event id the same.
        static func poke(_ number: Int, _ topology: TestTopology) -> FixtureLine {
            let id = "\(topology.prefix)-steady-\(number)"
            return RedGreenTaps.line(
                RedGreenTaps.event(id: id, request: id, category: category, action: .custom("poke")),
                exchange: topology.topology.inputExchange)
        }
    }

    /// Mixed traffic: while one handler's dependency is down, the other category's inputs are handled between the
    /// probes. They do not end the outage: readiness stays 503 and the outage is one (one warning), until the failing
    /// handler's own calls work again.
    @Test func otherCategoriesHandledBetweenTheProbesDoNotEndTheOutage() async throws {
        let topology = TestTopology("dependency-mixed", retryDelays: [1], deliveryLimit: 1)
        let (logger, records) = CapturingLogHandler.logger()
        let (probe, dependency, worker) = try await start(topology, logger: logger)
        let outageWarnings = {
            records.entries.filter { $0.level == .warning && $0.message.hasPrefix("a dependency of the handlers is unavailable") }
        }

        let failing = 10
        try await probe.publish((1...failing).map { FlakyHandler.poke("down-\($0)", topology) })
        try await waitFor("the worker to pause for the dependency") {
            worker.readiness.currentObstacles == [.dependencyUnavailable]
        }
        let steady = 20
        try await probe.publish((1...steady).map { SteadyHandler.poke($0, topology) })
        try await waitFor("the steady category's inputs handled between the probes") {
            try await probe.count(topology.topology.outputQueue) >= steady
        }
        // The failing handler is probed again after them, and the outage still goes on.
        let probed = dependency.calls + 3
        try await waitFor("the worker to probe the dependency again") { dependency.calls >= probed }
        #expect(worker.readiness.currentObstacles == [.dependencyUnavailable])
        #expect(outageWarnings().count == 1, "one outage, however much other traffic flowed")

        dependency.comeBack()
        let updates = try await probe.takeUpdates(steady + failing)
        try await waitFor("the worker to be ready again") { worker.readiness.isReady }
        try await worker.stop()

        #expect(updates.count == steady + failing, "one update per input, none twice")
        #expect(outageWarnings().count == 1)
        #expect(try await probe.count(topology.topology.deadLetterQueue) == 0, "the outage cost no input its retries")
        await probe.cleanUp()
    }

    /// A probe of `topology` and a ready worker whose ``DependentHandler``'s dependency is down, beside the
    /// ``SteadyHandler``; the worker probes it after 20 to 100 ms and logs to `logger`.
    private func start(
        _ topology: TestTopology, logger: Logger = .quiet, name: String = #function
    ) async throws -> (QueueProbe, DependentHandler.Dependency, InProcessWorker) {
        let probe = try await QueueProbe.open(topology, name: name)
        let dependency = DependentHandler.Dependency()
        var registry = HandlerRegistry()
        registry.register(
            NotificationCategory(identifier: FlakyHandler.category, actions: [NotificationAction(identifier: "poke", title: "Poke")]))
        registry.register(
            NotificationCategory(identifier: SteadyHandler.category, actions: [NotificationAction(identifier: "poke", title: "Poke")]))
        try registry.register(DependentHandler(down: dependency))
        try registry.register(SteadyHandler())
        let worker = try InProcessWorker(
            topology: topology, registry: registry,
            storeRetryBackoff: Backoff(initial: .milliseconds(20), maximum: .milliseconds(100)), logger: logger)
        try await worker.waitUntilReady()
        return (probe, dependency, worker)
    }
}
