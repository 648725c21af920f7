import Foundation
import Logging
import Responder
import Testing

@testable import ResponderWorker

/// Ordered mode's store pause (``IntakePause/waitInPlace(_:)``): one held input checks the store while the others
/// wait for the pause's end, a cancelled waiter leaves at once, and a waiter takes over the checks when the
/// checking input gives up.
@Suite(.timeLimit(.minutes(10)))
struct InPlaceStorePauseTests {
    /// A store whose availability checks fail until ``answer()``; it counts checks and how many ran at once.
    actor CheckedStore: StateStore, FleetLeases {
        let inboxRetention = Duration.seconds(3_600)
        let notificationRetention = Duration.seconds(3_600)
        private let memory = InMemoryStateStore()
        private var answers = false
        private var running = 0
        private(set) var checks = 0
        private(set) var mostAtOnce = 0
        private var checkWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        func answer() { answers = true }

        func load(_ loads: [StateLoad]) async throws -> [Result<StateSnapshot, any Error>] { await memory.load(loads) }
        func commit(_ commits: [StateCommit]) async throws -> [Result<CommitResult, any Error>] {
            await memory.commit(commits)
        }
        func notification(_ requestIdentifier: String) async -> NotificationRecord? {
            await memory.notification(requestIdentifier)
        }
        func inboxEntries(of requestIdentifier: String, limit: Int) async -> [InboxEntry] {
            await memory.inboxEntries(of: requestIdentifier, limit: limit)
        }
        func renewMembership(of member: String, for timeout: Duration) async -> ShardLeases {
            await memory.renewMembership(of: member, for: timeout)
        }
        func claimShard(_ shard: Int, for member: String) async -> Bool { await memory.claimShard(shard, for: member) }
        func releaseShards(_ shards: [Int], of member: String) async { await memory.releaseShards(shards, of: member) }
        func leaveFleet(_ member: String) async { await memory.leaveFleet(member) }
        func shardLeases() async -> ShardLeases { await memory.shardLeases() }
        func pruneInbox(processedBefore cutoff: Date) async -> Int { 0 }
        func pruneNotifications(changedBefore cutoff: Date) async -> Int { 0 }
        func checkAvailability() async throws {
            checks += 1
            checkWatchers.removeAll { watcher in
                guard checks >= watcher.count else { return false }
                watcher.continuation.resume()
                return true
            }
            running += 1
            mostAtOnce = max(mostAtOnce, running)
            defer { running -= 1 }
            // Suspends, so a second check made at the same time would overlap this one.
            for _ in 0..<3 { await Task.yield() }
            guard answers else { throw StateStoreUnavailable(reason: "still down (a test's store)") }
        }

        /// Returns once the store has seen `count` checks.
        func waitForChecks(_ count: Int) async {
            guard checks < count else { return }
            await withCheckedContinuation { checkWatchers.append((count, $0)) }
        }
    }

    private static let outage = Unavailability.store(StateStoreUnavailable(reason: "disk full (a test's store)"))

    private static func pause(_ store: CheckedStore) -> IntakePause {
        IntakePause(
            store: store, backoff: Backoff(initial: .milliseconds(1), maximum: .milliseconds(2)), readiness: Readiness(),
            metrics: WorkerMetrics(), logger: Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() }, inPlace: true,
            dependencyDown: { false })
    }

    @Test func oneInputChecksTheStoreAndEveryInputGoesOnWhenItAnswers() async throws {
        let store = CheckedStore()
        let pause = Self.pause(store)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<5 { group.addTask { try await pause.waitInPlace(Self.outage) } }
            await store.waitForChecks(4)
            #expect(pause.isPaused)
            await store.answer()
            try await group.waitForAll()
        }
        #expect(!pause.isPaused)
        #expect(await store.mostAtOnce == 1, "one input at a time checks the store")
    }

    @Test func aCancelledWaiterLeavesWhileThePauseGoesOn() async throws {
        let store = CheckedStore()
        let pause = Self.pause(store)
        let checker = Task { try await pause.waitInPlace(Self.outage) }
        await store.waitForChecks(1)
        let waiters = (0..<3).map { _ in Task { try await pause.waitInPlace(Self.outage) } }
        for waiter in waiters {
            waiter.cancel()
            await #expect(throws: CancellationError.self) { try await waiter.value }
        }
        #expect(pause.isPaused)
        await store.answer()
        try await checker.value
        #expect(!pause.isPaused)
    }

    @Test func aWaiterTakesOverTheChecksWhenTheCheckingInputGivesUp() async throws {
        let store = CheckedStore()
        let pause = Self.pause(store)
        let checker = Task { try await pause.waitInPlace(Self.outage) }
        await store.waitForChecks(1)
        let waiter = Task { try await pause.waitInPlace(Self.outage) }
        checker.cancel()
        await #expect(throws: CancellationError.self) { try await checker.value }
        let checksSoFar = await store.checks
        await store.waitForChecks(checksSoFar + 1)
        await store.answer()
        try await waiter.value
        #expect(!pause.isPaused)
        #expect(await store.mostAtOnce == 1)
    }
}
