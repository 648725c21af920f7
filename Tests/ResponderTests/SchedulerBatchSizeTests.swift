import BrokerHarness
import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// A pass longer than the scheduler's largest batch is handled in batches of that size, in order, each one's outcomes
/// reported before the next is handled; a notification held back in place by one batch holds its events in the
/// next batches too.
@Suite struct SchedulerBatchSizeTests {
    /// Runs `events`, submitted together (one pass), through a scheduler with batches of at most `maxBatchSize`;
    /// returns the completions' tags in order and the size of each store load. Each tag is put in `reported` as soon
    /// as the completion is taken.
    private static func run(
        _ events: [NotificationResponseEvent], maxBatchSize: Int, registry: HandlerRegistry, retryDelays: [Duration] = [],
        reported: Journal<String> = Journal()
    ) async -> (tags: [String], loads: [Int]) {
        let store = BatchPipelineTests.CountingStore(InMemoryStateStore())
        let scheduler = ResponseScheduler<String>(
            pipeline: ResponsePipeline(registry: registry, store: store, logger: .quiet), maxConcurrentNotifications: 4,
            retryDelaysInPlace: retryDelays, maxBatchSize: maxBatchSize)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await scheduler.run() }
            scheduler.submit(events.map { (Events.message($0), $0.id, nil) })
            scheduler.finish()
            for await completion in scheduler.completions { reported.append(completion.tag) }
        }
        return (reported.entries, await store.loads)
    }

    /// Handles every event; the first event of the second batch first waits, up to `hangGuard` (a crowded suite's
    /// wake-ups lag by seconds), until the first batch's completions have been taken.
    final class WaitsForTheFirstBatch: NotificationContentExtension, Sendable {
        let name = "waits"
        let categoryIdentifiers: Set<String> = ["photo-category"]
        let initialState = 0
        let reported: Journal<String>
        let firstBatch: Set<String>
        let waiter: String
        /// Whether the waiting event saw the first batch's completions taken.
        let sawFirstBatch = Journal<Bool>()

        init(reported: Journal<String>, firstBatch: Set<String>, waiter: String) {
            self.reported = reported
            self.firstBatch = firstBatch
            self.waiter = waiter
        }

        func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<Int>) async throws -> ResponseOption {
            guard context.eventID == waiter else { return .doNotDismiss }
            let deadline = ContinuousClock.now + hangGuard
            while !firstBatch.isSubset(of: reported.entries), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            sawFirstBatch.append(firstBatch.isSubset(of: reported.entries))
            return .doNotDismiss
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func aLongPassIsHandledInBatchesEachReportedBeforeTheNextIsHandled() async throws {
        let reported = Journal<String>()
        let handler = WaitsForTheFirstBatch(reported: reported, firstBatch: ["a/1", "b/1"], waiter: "c/1")
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(handler)
        let ids = [("a/1", "a"), ("b/1", "b"), ("c/1", "c"), ("a/2", "a"), ("a/3", "a")]
        let (tags, loads) = await Self.run(
            ids.map { Events.response(id: $0.0, request: $0.1) }, maxBatchSize: 2, registry: registry, reported: reported)

        #expect(loads == [2, 2, 1])
        #expect(tags == ids.map(\.0))
        #expect(handler.sawFirstBatch.entries == [true])
    }

    /// Cancelled while the first batch of a pass is handled (the session is ending), the scheduler finishes and
    /// reports that batch and starts no other: the later batches' events are never handled, stored or reported, so
    /// their inputs stay unacknowledged and the broker redelivers them.
    @Test(.timeLimit(.minutes(10)))
    func aCancelledSchedulerStartsNoFurtherBatchOfThePass() async throws {
        let gate = Signal()
        let gated = GatedExtension(gate: gate, heedsCancellation: false)
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(gated)
        let store = BatchPipelineTests.CountingStore(InMemoryStateStore())
        let scheduler = ResponseScheduler<String>(
            pipeline: ResponsePipeline(registry: registry, store: store, logger: .quiet), maxConcurrentNotifications: 4,
            maxBatchSize: 1)
        let ids = [("a/1", "a"), ("b/1", "b"), ("c/1", "c")]
        scheduler.submit(ids.map { (Events.message(Events.response(id: $0.0, request: $0.1)), $0.0, nil) })
        let running = Task { await scheduler.run() }
        // The first batch, a/1 alone, is in its handler.
        await gated.started.wait()
        running.cancel()
        await gate.fire()
        await running.value

        var tags: [String] = []
        for await completion in scheduler.completions { tags.append(completion.tag) }
        #expect(tags == ["a/1"])
        #expect(gated.calls.value == 1)
        #expect(await store.loads == [1])
        #expect(await store.commits == [1])
    }

    @Test(.timeLimit(.minutes(10)))
    func aNotificationHeldInPlaceByOneBatchHoldsItsEventsInTheNext() async throws {
        let recorder = InPlaceRetryTests.FlakyRecorder(failing: ["a/1": 1])
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(recorder)
        let ids = [("a/1", "a"), ("b/1", "b"), ("a/2", "a"), ("b/2", "b")]
        let (tags, loads) = await Self.run(
            ids.map { Events.response(id: $0.0, request: $0.1) }, maxBatchSize: 2, registry: registry,
            retryDelays: [.milliseconds(1)])

        // The second batch is b/2 alone: a/2 waits behind a/1's retry, then each of them is handled on its own.
        #expect(loads.first == 2)
        #expect(loads.dropFirst().allSatisfy { $0 == 1 }, "\(loads)")
        #expect(recorder.handled.filter { $0.hasPrefix("a/") } == ["a/1!", "a/1", "a/2"])
        #expect(tags.filter { $0.hasPrefix("a/") } == ["a/1", "a/2"])
        #expect(tags.filter { $0.hasPrefix("b/") } == ["b/1", "b/2"])
    }
}
