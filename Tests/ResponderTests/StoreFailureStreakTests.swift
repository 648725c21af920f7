import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// The backstop for store errors no rule recognises: many different events in a row failing on the store make it
/// unavailable (the worker pauses), while one event failing again and again, or failures among commits that
/// work, stay each event's own failure.
@Suite struct StoreFailureStreakTests {
    /// A store whose commits of events named `bad…` fail with a plain error; the others work.
    actor PickyStore: StateStore {
        let inboxRetention = Duration.seconds(3_600)
        let notificationRetention = Duration.seconds(3_600)
        private let memory = InMemoryStateStore()

        func load(_ loads: [StateLoad]) async throws -> [Result<StateSnapshot, any Error>] { await memory.load(loads) }
        func commit(_ commits: [StateCommit]) async throws -> [Result<CommitResult, any Error>] {
            var results: [Result<CommitResult, any Error>] = []
            for commit in commits {
                guard !commit.inboxEntry.eventID.hasPrefix("bad") else {
                    results.append(.failure(StoreUnavailableTests.Broken()))
                    continue
                }
                results += await memory.commit([commit])
            }
            return results
        }
        func notification(_ requestIdentifier: String) async throws -> NotificationRecord? { nil }
        func inboxEntries(of requestIdentifier: String, limit: Int) -> [InboxEntry] { [] }
        func pruneInbox(processedBefore cutoff: Date) -> Int { 0 }
        func pruneNotifications(changedBefore cutoff: Date) -> Int { 0 }
        func checkAvailability() {}
    }

    private func outcome(_ pipeline: ResponsePipeline, _ id: String) async -> ResponseOutcome {
        await pipeline.process(Events.message(Events.response(id: id)))
    }

    @Test func tenDifferentEventsFailingInARowMakeTheStoreUnavailable() async throws {
        let pipeline = ResponsePipeline(
            registry: try Fixtures.registry(), store: StoreUnavailableTests.FailingStore(StoreUnavailableTests.Broken()),
            logger: .quiet)
        for n in 1..<10 {
            #expect(await outcome(pipeline, "e\(n)").isRetryableFailure == true, "event \(n) fails on its own")
        }
        guard case .storeUnavailable(let unavailable) = await outcome(pipeline, "e10") else {
            Issue.record("the tenth different event in a row does not pause")
            return
        }
        #expect(unavailable.reason.hasPrefix("10 different events in a row failed on the state store; the last: Broken"))
        // Until the store serves an event again, every failure on it pauses again.
        guard case .storeUnavailable = await outcome(pipeline, "e1") else {
            Issue.record("a failure after the streak does not pause")
            return
        }
    }

    @Test func oneEventFailingAgainAndAgainStaysItsOwnFailure() async throws {
        let pipeline = ResponsePipeline(
            registry: try Fixtures.registry(), store: StoreUnavailableTests.FailingStore(StoreUnavailableTests.Broken()),
            logger: .quiet)
        for _ in 0..<30 { #expect(await outcome(pipeline, "poison").isRetryableFailure == true) }
    }

    @Test func aCommitThatWorksEndsTheStreak() async throws {
        let pipeline = ResponsePipeline(registry: try Fixtures.registry(), store: PickyStore(), logger: .quiet)
        for round in 0..<3 {
            for n in 1..<10 { #expect(await outcome(pipeline, "bad-\(round)-\(n)").isRetryableFailure == true) }
            guard case .completed = await outcome(pipeline, "good-\(round)") else {
                Issue.record("a good event fails")
                return
            }
        }
    }
}
