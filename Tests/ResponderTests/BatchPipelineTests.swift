import Foundation
import InMemoryTracing
import NotificationEvents
import PipelineHarness
import Responder
import StoreHarness
import Testing
import Tracing

/// A batch through the pipeline: one store load and one store commit, the events of a notification in order each on
/// the state the one before it left, a conflict handling that notification's events again, and every outcome,
/// span and failure per event as a single event gets it.
@Suite struct BatchPipelineTests {
    /// A store that records the size of each load and commit batch it is given.
    actor CountingStore: StateStore {
        let inner: any StateStore
        private(set) var loads: [Int] = []
        private(set) var commits: [Int] = []

        init(_ inner: any StateStore) { self.inner = inner }

        nonisolated var inboxRetention: Duration { inner.inboxRetention }
        nonisolated var notificationRetention: Duration { inner.notificationRetention }

        func load(_ loads: [StateLoad]) async throws -> [Result<StateSnapshot, any Error>] {
            self.loads.append(loads.count)
            return try await inner.load(loads)
        }
        func commit(_ commits: [StateCommit]) async throws -> [Result<CommitResult, any Error>] {
            self.commits.append(commits.count)
            return try await inner.commit(commits)
        }
        func notification(_ requestIdentifier: String) async throws -> NotificationRecord? {
            try await inner.notification(requestIdentifier)
        }
        func inboxEntries(of requestIdentifier: String, limit: Int) async throws -> [InboxEntry] {
            try await inner.inboxEntries(of: requestIdentifier, limit: limit)
        }
        func pruneInbox(processedBefore cutoff: Date) async throws -> Int { 0 }
        func pruneNotifications(changedBefore cutoff: Date) async throws -> Int { 0 }
        func checkAvailability() async throws {}
    }

    /// Counts taps and sets the actions to one named after the count.
    private let counter = TestExtension(actionSets: { state in
        [[NotificationAction(identifier: "taps-\(state.taps)", title: "")]]
    })

    private func pipeline(_ store: any StateStore, tracer: (any Tracer)? = nil) throws -> ResponsePipeline {
        var configuration = PipelineConfiguration()
        configuration.tracer = tracer
        return ResponsePipeline(
            registry: try Fixtures.registry(extension: counter), store: store, configuration: configuration,
            logger: .quiet)
    }

    private func batch(_ events: [(id: String, request: String)], _ pipeline: ResponsePipeline) throws -> [DecodedInput] {
        try events.map { try pipeline.decode(Events.message(Events.response(id: $0.id, request: $0.request))) }
    }

    private func actions(_ outcome: ResponseOutcome) throws -> [String]? {
        try outcome.outputs.first?.update.data.actions.map(\.identifier)
    }

    @Test(arguments: StoreKind.allCases)
    func laterEventsOfANotificationSeeTheEarlierOnesStateInOneLoadAndOneCommit(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = CountingStore(try await kind.make(in: directory))
        let pipeline = try pipeline(store)
        let outcomes = await pipeline.handle(
            try batch([("e1", "note-1"), ("e2", "note-2"), ("e3", "note-1"), ("e4", "note-1")], pipeline), concurrency: 4)

        #expect(outcomes.map(\.disposition) == [.updated, .updated, .updated, .updated])
        #expect(try outcomes.map(actions) == [["taps-1"], ["taps-1"], ["taps-2"], ["taps-3"]])
        #expect(try outcomes.map { try $0.outputs.first?.update.data.version } == [1, 1, 2, 3])
        #expect(await store.loads == [4])
        #expect(await store.commits == [4])
        #expect(try await store.notification("note-1")?.version == 3)
        #expect(try await store.notification("note-2")?.version == 1)
    }

    /// Another process changes note-1 before the batch's commit: note-1's two events conflict (the second by the
    /// store's rule for a batch) and are handled again, in order, on the new state; note-2's event commits once.
    @Test(arguments: StoreKind.allCases)
    func aConflictHandlesThatNotificationsEventsAgainAlone(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let counting = CountingStore(try await kind.make(in: directory))
        let store = ConflictTests.InterferingStore(counting, interferences: 1)
        let pipeline = try pipeline(store)
        let outcomes = await pipeline.handle(try batch([("e1", "note-1"), ("e2", "note-2"), ("e3", "note-1")], pipeline))

        #expect(outcomes.map(\.disposition) == [.updated, .updated, .updated])
        // The other process stored note-1 with one tap (its state was e1's first handling).
        #expect(try outcomes.map(actions) == [["taps-2"], ["taps-1"], ["taps-3"]])
        #expect(counter.journal.entries.map(\.eventID) == ["e1", "e3", "e2", "e1", "e3"])
        // The interference's own commit is the first of each count: one event.
        #expect(await counting.loads == [3, 2])
        #expect(await counting.commits == [1, 3, 2])
        #expect(try await store.notification("note-1")?.version == 3)
        #expect(try await store.notification("note-2")?.version == 1)
    }

    /// A redelivery in the same batch as its original runs no handler again: it gets the original's stored outputs.
    @Test(arguments: StoreKind.allCases)
    func aRedeliveryInTheSameBatchRunsNoHandlerTwice(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        let pipeline = try pipeline(store)
        let outcomes = await pipeline.handle(try batch([("e1", "note-1"), ("e1", "note-1")], pipeline))

        #expect(outcomes.map(\.disposition) == [.updated, .deduplicated])
        #expect(outcomes[0].outputs == outcomes[1].outputs)
        #expect(counter.journal.entries.count == 1)
        #expect(try await store.notification("note-1")?.version == 1)
    }

    /// A commit of the batch that fails fails its event alone; the others complete.
    @Test func aFailingCommitFailsItsEventAlone() async throws {
        let pipeline = try pipeline(StoreFailureStreakTests.PickyStore())
        let outcomes = await pipeline.handle(try batch([("e1", "note-1"), ("bad-1", "note-2"), ("e2", "note-3")], pipeline))

        #expect(outcomes[0].disposition == .updated)
        #expect(outcomes[1].isRetryableFailure == true)
        #expect(outcomes[2].disposition == .updated)
    }

    /// A full store: every notification's first commit of a batch is refused as unavailable, and its later commits
    /// of the batch come back as version conflicts, as the stores answer after a commit of the same notification
    /// that was not committed.
    actor FullStore: StateStore {
        let memory = InMemoryStateStore()
        nonisolated var inboxRetention: Duration { memory.inboxRetention }
        nonisolated var notificationRetention: Duration { memory.notificationRetention }

        func load(_ loads: [StateLoad]) async throws -> [Result<StateSnapshot, any Error>] { await memory.load(loads) }
        func commit(_ commits: [StateCommit]) async throws -> [Result<CommitResult, any Error>] {
            var refused: Set<String> = []
            return commits.map { commit in
                refused.insert(commit.inboxEntry.requestIdentifier).inserted
                    ? .failure(StateStoreUnavailable(reason: "database or disk is full")) : .success(.versionConflict)
            }
        }
        func notification(_ requestIdentifier: String) async throws -> NotificationRecord? { nil }
        func inboxEntries(of requestIdentifier: String, limit: Int) async throws -> [InboxEntry] { [] }
        func pruneInbox(processedBefore cutoff: Date) async throws -> Int { 0 }
        func pruneNotifications(changedBefore cutoff: Date) async throws -> Int { 0 }
        func checkAvailability() async throws {}
    }

    /// Many events of one notification in a batch on a full store: each is handed back as the store's outage, none
    /// fails for running out of conflict retries (a full state file once sent inputs to the retry queue so).
    @Test func eventsBehindOneThatMetAnUnavailableStoreShareItsOutcome() async throws {
        let pipeline = try pipeline(FullStore())
        let events = (1...8).map { (id: "e\($0)", request: "note-1") } + [(id: "f1", request: "note-2")]
        let outcomes = await pipeline.handle(try batch(events, pipeline))
        for (event, outcome) in zip(events, outcomes) {
            guard case .storeUnavailable = outcome else {
                Issue.record("\(event.id): \(outcome), not the store's outage")
                continue
            }
        }
    }

    /// Each event of a batch has its own `handle` span and, within it, its own `commit` span.
    @Test func eachEventOfABatchHasItsOwnSpans() async throws {
        let tracer = InMemoryTracer()
        let process = tracer.startSpan("process", context: .topLevel, ofKind: .consumer)
        let pipeline = try pipeline(InMemoryStateStore(), tracer: tracer)
        let inputs = try batch([("e1", "note-1"), ("e2", "note-2")], pipeline)
        _ = await ServiceContext.withValue(process.context) { await pipeline.handle(inputs) }
        process.end()

        let spans = tracer.finishedSpans
        let handles = spans.filter { $0.operationName == "handle" }
        let commits = spans.filter { $0.operationName == "commit" }
        #expect(handles.count == 2 && commits.count == 2)
        #expect(handles.allSatisfy { $0.traceID == process.traceID && $0.parentSpanID == process.spanID })
        #expect(Set(commits.map(\.parentSpanID)) == Set(handles.map(\.spanID)))
    }

    /// With a hold on retryable failures, an event that fails holds back its notification's later events of the batch:
    /// they are not handled and get no outcome; other notifications go on.
    @Test func aHoldingOutcomeLeavesItsNotificationsLaterEventsUnhandled() async throws {
        let recorder = InPlaceRetryTests.FlakyRecorder(failing: ["a/1": 1])
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(recorder)
        let store = InMemoryStateStore()
        let pipeline = ResponsePipeline(registry: registry, store: store, logger: .quiet)
        let inputs = try [("a/1", "a"), ("b/1", "b"), ("a/2", "a"), ("b/2", "b")].map {
            try pipeline.decode(Events.message(Events.response(id: $0.0, request: $0.1)))
        }
        let outcomes = await pipeline.handle(
            inputs, concurrency: 2, under: [], holdingBack: { $0.isRetryableFailure == true }
        ).outcomes

        #expect(outcomes[0]?.isRetryableFailure == true)
        #expect(outcomes[1]?.disposition == .noUpdate)
        #expect(outcomes[2] == nil)
        #expect(outcomes[3]?.disposition == .noUpdate)
        #expect(recorder.handled.filter { $0.hasPrefix("a/") } == ["a/1!"])
        #expect(await store.notification("a") == nil)
    }
}
