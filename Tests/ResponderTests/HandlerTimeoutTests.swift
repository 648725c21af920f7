import BrokerHarness
import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// A handler past its time limit is cancelled and its input fails retryably with a ``HandlerTimeout``, nothing of it
/// committed; one that ignores the cancellation does not hold the pipeline, and what it returns late is dropped.
@Suite(.timeLimit(.minutes(10)))
struct HandlerTimeoutTests {
    private func makePipeline(
        _ handler: GatedExtension, timeout: Duration? = nil, defaultTimeout: Duration = .milliseconds(200),
        maxAbandonedCalls: Int = PipelineConfiguration().maxAbandonedCalls, store: InMemoryStateStore
    ) throws -> ResponsePipeline {
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(handler, timeout: timeout)
        var configuration = PipelineConfiguration()
        configuration.handlerTimeout = defaultTimeout
        configuration.maxAbandonedCalls = maxAbandonedCalls
        return ResponsePipeline(registry: registry, store: store, configuration: configuration, logger: .quiet)
    }

    @Test func aHandlerPastItsLimitIsCancelledAndItsInputFailsRetryablyWithNothingCommitted() async throws {
        let handler = GatedExtension(gate: Signal(), heedsCancellation: true)
        let store = InMemoryStateStore()
        let pipeline = try makePipeline(handler, store: store)
        let outcome = await pipeline.process(Events.message(Events.response(id: "e1")))

        guard case .failed(let error, let retryable) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(retryable)
        let timeout = try #require(error as? HandlerTimeout)
        #expect(timeout.handler == "slow")
        #expect(timeout.limit == .milliseconds(200))
        #expect("\(error)".hasPrefix("handler-timeout: the extension \"slow\" ran past its limit"))
        #expect(handler.sawCancellation.isRaised, "the handler's task was cancelled")
        #expect(try await store.load(requestIdentifier: "note-1", source: "/tests", eventID: "e1") == .unprocessed(nil))
    }

    @Test func aHandlerThatIgnoresCancellationDoesNotHoldThePipelineAndItsLateResultIsDropped() async throws {
        let gate = Signal()
        let handler = GatedExtension(gate: gate, heedsCancellation: false)
        let store = InMemoryStateStore()
        let pipeline = try makePipeline(handler, store: store)
        // The gate opens only after the pipeline answered: a pipeline that waited for the handler would never answer.
        let outcome = await pipeline.process(Events.message(Events.response(id: "e1")))
        #expect(outcome.isRetryableFailure == true)
        #expect(handler.sawCancellation.isRaised)

        await gate.fire()
        await handler.finished.wait()
        #expect(try await store.load(requestIdentifier: "note-1", source: "/tests", eventID: "e1") == .unprocessed(nil))
        // The same input, handled again once the handler answers in time, commits as usual.
        let again = await pipeline.process(Events.message(Events.response(id: "e1")))
        #expect(again.disposition == .updated)
    }

    @Test func callsCutOffThatStillRunStopFurtherCallsAtTheLimitUntilTheyEnd() async throws {
        let gate = Signal()
        let handler = GatedExtension(gate: gate, heedsCancellation: false)
        let pipeline = try makePipeline(handler, maxAbandonedCalls: 2, store: InMemoryStateStore())
        let response = { (id: String) in Events.message(Events.response(id: id, request: "note-\(id)")) }
        for id in ["e1", "e2"] { #expect(await pipeline.process(response(id)).isRetryableFailure == true) }
        #expect(pipeline.isDependencyUnavailable, "two calls cut off still run, the limit")

        // At the limit no handler is called: the input meets an unavailable dependency, which pauses a worker.
        guard case .dependencyUnavailable(let unavailable) = await pipeline.process(response("e3")) else {
            Issue.record("an input at the limit should find the dependency unavailable")
            return
        }
        #expect(handler.calls.value == 2)
        #expect("\(unavailable)".contains("2 handler calls cut off by their time limit still run"))

        // Once they end, calls start again.
        await gate.fire()
        let deadline = ContinuousClock.now + hangGuard
        while pipeline.isDependencyUnavailable, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(!pipeline.isDependencyUnavailable, "the calls cut off ended")
        #expect(await pipeline.process(response("e3")).disposition == .updated)
    }

    @Test func aCallThatHeedsItsCancellationIsNotLeftCounted() async throws {
        /// Sleeps an hour, or until its task is cancelled.
        struct Sleeping: UserNotificationCenterDelegate {
            let calls = CallCount()
            func didReceive(_ response: NotificationResponse, context: inout DelegateContext) async throws {
                calls.increment()
                try await Task.sleep(for: .seconds(3600))
            }
        }
        let delegate = Sleeping()
        var registry = try Fixtures.registry(extension: nil, delegate: nil)
        registry.setDelegate(delegate, timeout: .milliseconds(100))
        var configuration = PipelineConfiguration()
        configuration.maxAbandonedCalls = 1
        let pipeline = ResponsePipeline(registry: registry, store: InMemoryStateStore(), configuration: configuration, logger: .quiet)
        let response = { (id: String) in Events.message(Events.response(id: id, action: .default)) }
        #expect(await pipeline.process(response("e1")).isRetryableFailure == true)
        // Cancelled, it returns at once; until it has, it counts as a call cut off that still runs.
        let deadline = ContinuousClock.now + hangGuard
        while pipeline.isDependencyUnavailable, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(!pipeline.isDependencyUnavailable)
        #expect(await pipeline.process(response("e2")).isRetryableFailure == true, "called, and cut off again")
        #expect(delegate.calls.value == 2)
    }

    @Test func aLimitGivenAtRegistrationReplacesThePipelinesLimit() async throws {
        let gate = Signal()
        let store = InMemoryStateStore()
        // A default far beyond the test's time limit: only the handler's own limit can end the call.
        let handler = GatedExtension(gate: gate, heedsCancellation: true)
        let limited = try makePipeline(handler, timeout: .milliseconds(100), defaultTimeout: .seconds(3600), store: store)
        let outcome = await limited.process(Events.message(Events.response(id: "e1")))
        let timeout = try #require(outcome.failure as? HandlerTimeout)
        #expect(timeout.limit == .milliseconds(100))

        // Without a limit of its own, a handler that answers within the pipeline's is not cut off.
        let quick = GatedExtension(gate: gate, heedsCancellation: true)
        await gate.fire()
        let unlimited = try makePipeline(quick, store: store)
        let handled = await unlimited.process(Events.message(Events.response(id: "e2")))
        #expect(handled.disposition == .updated)
    }

    @Test func theAppDelegateHasALimitToo() async throws {
        struct HangingDelegate: UserNotificationCenterDelegate {
            func didReceive(_ response: NotificationResponse, context: inout DelegateContext) async throws {
                try await Task.sleep(for: .seconds(3600))
            }
        }
        var registry = try Fixtures.registry(extension: nil, delegate: nil)
        registry.setDelegate(HangingDelegate(), timeout: .milliseconds(100))
        let store = InMemoryStateStore()
        let pipeline = ResponsePipeline(registry: registry, store: store, logger: .quiet)
        let outcome = await pipeline.process(Events.message(Events.response(id: "e1", action: .default)))
        let timeout = try #require(outcome.failure as? HandlerTimeout)
        #expect(timeout.handler == "delegate")
        #expect("\(timeout)".hasPrefix("handler-timeout: the app delegate ran past its limit"))
    }

    @Test func aShortLimitIsKeptWhileALongerOneIsPending() async throws {
        // One notification's handler with a long limit is in progress when another's, with a short one, starts: the
        // short one must still end on time, though the one timer was set for the long deadline.
        let gate = Signal()
        struct Quick: UserNotificationCenterDelegate {
            func didReceive(_ response: NotificationResponse, context: inout DelegateContext) async throws {
                try await Task.sleep(for: .seconds(3600))
            }
        }
        var registry = try Fixtures.registry(extension: nil, delegate: nil)
        let slow = GatedExtension(gate: gate, heedsCancellation: true)
        try registry.register(slow, timeout: .seconds(3600))
        registry.setDelegate(Quick(), timeout: .milliseconds(200))
        let pipeline = ResponsePipeline(registry: registry, store: InMemoryStateStore(), logger: .quiet)
        async let long = pipeline.process(Events.message(Events.response(id: "long", request: "note-long")))
        // The long call is armed first: wait until its handler runs.
        await slow.started.wait()
        let short = await pipeline.process(
            Events.message(Events.response(id: "short", request: "note-short", action: .default)))
        #expect((short.failure as? HandlerTimeout)?.limit == .milliseconds(200))
        await gate.fire()
        #expect(await long.disposition == .updated)
    }
}

extension ResponseOutcome {
    /// The error of a failed outcome, nil otherwise.
    fileprivate var failure: (any Error)? {
        if case .failed(let error, _) = self { return error }
        return nil
    }
}
