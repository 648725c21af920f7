import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// Ordered mode's store outage: an event that meets an unavailable store waits where it is, its notification's
/// later events behind it, and is handled again once the store answers; given up, it and the later events are left
/// unreported for the broker to redeliver in order.
@Suite struct InPlaceStoreWaitTests {
    /// The in-memory store, unavailable for commits while `isDown`, or always for the events in `alwaysDown`.
    actor OutageStore: StateStore {
        let inboxRetention = Duration.seconds(3_600)
        let notificationRetention = Duration.seconds(3_600)
        let memory = InMemoryStateStore()
        private var isDown: Bool
        private let alwaysDown: Set<String>

        init(down: Bool, alwaysDown: Set<String> = []) {
            isDown = down
            self.alwaysDown = alwaysDown
        }

        func comeBack() { isDown = false }

        func load(_ loads: [StateLoad]) async throws -> [Result<StateSnapshot, any Error>] { await memory.load(loads) }
        func commit(_ commits: [StateCommit]) async throws -> [Result<CommitResult, any Error>] {
            if isDown { throw StateStoreUnavailable(reason: "the test's outage") }
            // Commits after one of their notification's that failed are conflicts, as every store answers them.
            var chains = CommitChains()
            var results: [Result<CommitResult, any Error>] = []
            for commit in commits {
                guard chains.mayWrite(commit) else {
                    results.append(.success(.versionConflict))
                    continue
                }
                let result: Result<CommitResult, any Error>
                if alwaysDown.contains(commit.inboxEntry.eventID) {
                    result = .failure(StateStoreUnavailable(reason: "the test's outage"))
                } else {
                    result = (await memory.commit([commit]))[0]
                }
                chains.record(result, of: commit)
                results.append(result)
            }
            return results
        }
        func notification(_ requestIdentifier: String) async throws -> NotificationRecord? {
            await memory.notification(requestIdentifier)
        }
        func inboxEntries(of requestIdentifier: String, limit: Int) async -> [InboxEntry] {
            await memory.inboxEntries(of: requestIdentifier, limit: limit)
        }
        func pruneInbox(processedBefore cutoff: Date) -> Int { 0 }
        func pruneNotifications(changedBefore cutoff: Date) -> Int { 0 }
        func checkAvailability() {}
    }

    /// The waits the scheduler asked for: `arrived` fires once `expected` of them are waiting; they return (or
    /// throw, when `givesUp`) once `release` fires.
    actor Waits {
        private(set) var reasons: [String] = []
        private let expected: Int
        private let givesUp: Bool
        let arrived = Signal()
        let release = Signal()

        init(expected: Int, givesUp: Bool = false) {
            self.expected = expected
            self.givesUp = givesUp
        }

        func wait(_ unavailability: Unavailability) async throws {
            reasons.append(unavailability.reason)
            if reasons.count == expected { await arrived.fire() }
            await release.wait()
            if givesUp { throw CancellationError() }
        }
    }

    private static func events(_ request: String, count: Int) -> [NotificationResponseEvent] {
        (1...count).map { Events.response(id: "\(request)/\($0)", request: request) }
    }

    private static func state(of request: String, in store: InMemoryStateStore) async throws -> [String]? {
        guard let record = await store.notification(request) else { return nil }
        return try EventCodec.decodeStored([String].self, from: try #require(record.handlerStates["flaky"]))
    }

    /// Runs `events` through a scheduler on `store` that waits in place with `waits`; `whileRunning` runs once the
    /// expected waits arrived, before they are released.
    private static func run(
        _ events: [NotificationResponseEvent], store: OutageStore, waits: Waits, recorder: InPlaceRetryTests.FlakyRecorder,
        whileRunning: @escaping @Sendable () async -> Void = {}
    ) async throws -> [ResponseScheduler<String>.Completion] {
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(recorder)
        let scheduler = ResponseScheduler<String>(
            pipeline: ResponsePipeline(registry: registry, store: store, logger: .quiet), maxConcurrentNotifications: 4,
            waitInPlace: { try await waits.wait($0) })
        // Submitted before it runs, so they are all in its first batch: which events a batch handles (and discards
        // after a failed commit) is then known.
        scheduler.submit(events.map { (Events.message($0), $0.id, nil) })
        return await withTaskGroup(of: Void.self) { group in
            group.addTask { await scheduler.run() }
            scheduler.finish()
            group.addTask {
                await waits.arrived.wait()
                await whileRunning()
                await waits.release.fire()
            }
            var completions: [ResponseScheduler<String>.Completion] = []
            for await completion in scheduler.completions { completions.append(completion) }
            return completions
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func eventsWaitForTheStoreInPlaceAndFollowInOrder() async throws {
        let store = OutageStore(down: true)
        let waits = Waits(expected: 2)
        let recorder = InPlaceRetryTests.FlakyRecorder(failing: [:])
        let completions = try await Self.run(
            Self.events("a", count: 3) + Self.events("b", count: 2), store: store, waits: waits, recorder: recorder,
            whileRunning: { await store.comeBack() })

        // Each notification's first event waited; what its batch made of the events behind it was not committed, and
        // they were handled again only after it.
        #expect(await waits.reasons == ["the test's outage", "the test's outage"])
        #expect(recorder.handled.filter { $0.hasPrefix("a/") } == ["a/1", "a/2", "a/3", "a/1", "a/2", "a/3"])
        #expect(recorder.handled.filter { $0.hasPrefix("b/") } == ["b/1", "b/2", "b/1", "b/2"])
        #expect(completions.map(\.tag).filter { $0.hasPrefix("a/") } == ["a/1", "a/2", "a/3"])
        #expect(completions.map(\.tag).filter { $0.hasPrefix("b/") } == ["b/1", "b/2"])
        #expect(completions.allSatisfy { $0.outcome.disposition == .noUpdate && $0.retriedInPlace == 0 })
        #expect(try await Self.state(of: "a", in: store.memory) == ["a/1", "a/2", "a/3"])
        #expect(try await Self.state(of: "b", in: store.memory) == ["b/1", "b/2"])
    }

    @Test(.timeLimit(.minutes(10)))
    func aWaitGivenUpLeavesTheEventAndItsNotificationsLaterEventsUnreported() async throws {
        let store = OutageStore(down: false, alwaysDown: ["a/1"])
        let waits = Waits(expected: 1, givesUp: true)
        let recorder = InPlaceRetryTests.FlakyRecorder(failing: [:])
        let completions = try await Self.run(
            Self.events("a", count: 3) + Self.events("b", count: 2), store: store, waits: waits, recorder: recorder)

        #expect(completions.map(\.tag).sorted() == ["b/1", "b/2"])
        // Handled once in the batch, their commits not made; not again once the wait was given up.
        #expect(recorder.handled.filter { $0.hasPrefix("a/") } == ["a/1", "a/2", "a/3"])
        #expect(try await Self.state(of: "a", in: store.memory) == nil)
        #expect(try await Self.state(of: "b", in: store.memory) == ["b/1", "b/2"])
    }

    @Test(.timeLimit(.minutes(10)))
    func withoutAStoreWaitTheOutageIsReportedAtOnce() async throws {
        let store = OutageStore(down: true)
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(InPlaceRetryTests.FlakyRecorder(failing: [:]))
        let scheduler = ResponseScheduler<String>(
            pipeline: ResponsePipeline(registry: registry, store: store, logger: .quiet), maxConcurrentNotifications: 4)
        let completions = await withTaskGroup(of: Void.self) { group in
            group.addTask { await scheduler.run() }
            scheduler.submit(Self.events("a", count: 2).map { (Events.message($0), $0.id, nil) })
            scheduler.finish()
            var completions: [ResponseScheduler<String>.Completion] = []
            for await completion in scheduler.completions { completions.append(completion) }
            return completions
        }
        #expect(completions.map(\.tag) == ["a/1", "a/2"])
        for completion in completions {
            guard case .storeUnavailable(let unavailable) = completion.outcome else {
                Issue.record("\(completion.tag): \(completion.outcome)")
                continue
            }
            #expect(unavailable.reason == "the test's outage")
        }
    }
}
