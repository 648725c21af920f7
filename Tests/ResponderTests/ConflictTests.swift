import Foundation
import Logging
import NotificationEvents
import PipelineHarness
import Responder
import StoreHarness
import Testing

/// Optimistic concurrency: when another process changed the notification first, the response is handled again
/// on the new state.
@Suite struct ConflictTests {
    /// A store that lets another writer commit to the same notification just before each of the first
    /// `interferences` commits, as a second process would.
    actor InterferingStore: StateStore {
        let inner: any StateStore
        var interferences: Int
        private var counter = 0

        init(_ inner: any StateStore, interferences: Int) {
            self.inner = inner
            self.interferences = interferences
        }

        nonisolated var inboxRetention: Duration { inner.inboxRetention }
        nonisolated var notificationRetention: Duration { inner.notificationRetention }

        func load(_ loads: [StateLoad]) async throws -> [Result<StateSnapshot, any Error>] {
            try await inner.load(loads)
        }

        func commit(_ commits: [StateCommit]) async throws -> [Result<CommitResult, any Error>] {
            for commit in commits {
                guard interferences > 0, let theirs = commit.notification else { continue }
                interferences -= 1
                counter += 1
                var other = theirs
                other.actions = [NotificationAction(identifier: "other-process-\(counter)", title: "")]
                let entry = InboxEntry(source: "/tests", eventID: "other-\(counter)", requestIdentifier: theirs.requestIdentifier, outputs: [],
                    processedAt: .now)
                #expect(try await inner.commit(StateCommit(inboxEntry: entry, notification: other)) == .committed)
            }
            return try await inner.commit(commits)
        }

        func notification(_ requestIdentifier: String) async throws -> NotificationRecord? {
            try await inner.notification(requestIdentifier)
        }
        func inboxEntries(of requestIdentifier: String, limit: Int) async throws -> [InboxEntry] {
            try await inner.inboxEntries(of: requestIdentifier, limit: limit)
        }

        func pruneInbox(processedBefore cutoff: Date) async throws -> Int {
            try await inner.pruneInbox(processedBefore: cutoff)
        }

        func checkAvailability() async throws {
            try await inner.checkAvailability()
        }

        func pruneNotifications(changedBefore cutoff: Date) async throws -> Int {
            try await inner.pruneNotifications(changedBefore: cutoff)
        }
    }

    /// Appends an action to whatever the current set is.
    struct Appender: NotificationContentExtension {
        let name = "appender"
        let categoryIdentifiers: Set<String> = ["photo-category"]
        let initialState = 0
        let runs = Journal<[String]>()

        func didReceive(
            _ response: NotificationResponse, context: inout ExtensionContext<Int>
        ) async throws -> ResponseOption {
            runs.append(context.notificationActions.map(\.identifier))
            context.state += 1
            context.setNotificationActions(context.notificationActions + [Fixtures.like])
            return .doNotDismiss
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aConflictIsHandledAgainOnTheNewState(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = InterferingStore(try await kind.make(in: directory), interferences: 1)
        let appender = Appender()
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(appender)
        let outcome = await ResponsePipeline(registry: registry, store: store, logger: .quiet)
            .process(Events.message(Events.response(id: "e1")))

        #expect(outcome.disposition == .updated)
        #expect(appender.runs.entries == [["like-action", "share-action", "reply-action"], ["other-process-1"]])
        #expect(try outcome.outputs.first?.update.data.actions.map(\.identifier) == ["other-process-1", "like-action"])
        let record = try #require(try await store.notification("note-1"))
        #expect(record.version == 2)
        #expect(record.actions.map(\.identifier) == ["other-process-1", "like-action"])
    }

    @Test func endlessConflictsEndInARetryableFailure() async throws {
        let store = InterferingStore(InMemoryStateStore(), interferences: 100)
        var configuration = PipelineConfiguration()
        configuration.maxConflictRetries = 3
        let appender = Appender()
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(appender)
        let outcome = await ResponsePipeline(
            registry: registry, store: store, configuration: configuration, logger: .quiet
        )
        .process(Events.message(Events.response(id: "e1")))
        guard case .failed(let error, retryable: true) = outcome else {
            Issue.record("expected a retryable failure, got \(outcome)")
            return
        }
        #expect(error is StateConflictError)
        #expect(appender.runs.entries.count == 4)
        let snapshot = try await store.load(requestIdentifier: "note-1", source: "/tests", eventID: "e1")
        #expect(snapshot == .unprocessed(try await store.notification("note-1")))
    }
}
