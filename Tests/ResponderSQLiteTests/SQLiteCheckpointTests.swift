import BrokerHarness
import Foundation
import GRDBSQLite
import NotificationEvents
import PipelineHarness
import Responder
import StoreHarness
import Synchronization
import Testing

@testable import ResponderSQLite

/// Commits leave the WAL checkpoint to the store's helper connection, and the WAL is still checkpointed and
/// started over. What the tests watch is the WAL file: its size gives the most frames it has held, and its header
/// (checkpoint sequence number and salts) changes each time a write starts the WAL over, which a write only does
/// once a checkpoint has copied the whole WAL.
@Suite(.timeLimit(.minutes(10))) struct SQLiteCheckpointTests {
    /// A WAL frame: a 24-byte header and a page (4 KiB, SQLite's default).
    private static let frameSize = 24 + 4096

    /// A store at a fresh path, with the commits of distinct events and notifications it has been given.
    private struct Committing {
        let path: String
        let store: SQLiteStateStore
        var committed = 0

        mutating func commitNext() async throws {
            let request = "note-\(committed)"
            let commit = StateCommit(
                inboxEntry: InboxEntry(
                    source: "/tests", eventID: "event-\(committed)", requestIdentifier: request, outputs: [],
                    processedAt: .now),
                notification: NotificationRecord(
                    requestIdentifier: request, categoryIdentifier: "photo-category", actions: [Fixtures.like],
                    handlerStates: ["likes": Array(#"{"taps":1}"#.utf8)]))
            #expect(try await store.commit(commit) == .committed)
            committed += 1
        }

        /// The most frames the WAL has held: the file is only cut back beyond `journal_size_limit`.
        func walFrames() throws -> Int {
            let size = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
            return max(0, size - 32) / frameSize
        }

        /// The WAL header's checkpoint sequence number and salts, which change whenever the WAL starts over.
        func walGeneration() throws -> Data {
            try Data(contentsOf: URL(fileURLWithPath: path + "-wal")).subdata(in: 12..<20)
        }
    }

    /// The helper's connection waits for a lock as the store's own connections do: while another connection to the
    /// file holds it (as one closing does for a moment), the helper starts once it is let go instead of failing with
    /// "database is locked" (seen in CI: a store opened as another on the same file closed).
    @Test func theHelperWaitsForALockAsTheStoreDoes() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        try SQLiteStateStore(path: path).close()
        var other: OpaquePointer?
        #expect(sqlite3_open(path, &other) == SQLITE_OK)
        #expect(sqlite3_exec(other, "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE", nil, nil, nil) == SQLITE_OK)
        let checkpointer = SQLiteCheckpointer(policy: .standard)
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        let began = Mutex<ContinuousClock.Instant?>(nil)
        DispatchQueue.global().async {
            began.withLock { $0 = .now }
            // A busy timeout no run of the suite reaches: on a crowded machine the test's own wake-ups can lag by
            // seconds (a timeout of 60 s once ran out while it counted 100 sleeps of 20 ms).
            let result = Result { try checkpointer.start(path: path, busyTimeout: .seconds(3600)) }
            outcome.withLock { $0 = result }
        }
        // Without a busy timeout the helper fails at once; with one it waits as long as the lock is held. Watched for a
        // second of the clock once the helper has begun, however few wake-ups the test gets in it.
        while outcome.withLock({ $0 == nil }) {
            if let began = began.withLock({ $0 }), ContinuousClock.now - began > .seconds(1) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(outcome.withLock { $0 == nil }, "the helper did not wait for the lock")
        #expect(sqlite3_exec(other, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(other)
        while outcome.withLock({ $0 == nil }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(throws: Never.self) { try outcome.withLock { $0 }?.get() }
        try checkpointer.close()
    }

    @Test func commitsLeaveTheCheckpointToTheHelperWhichStillStartsTheWALOver() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        var run = Committing(path: path, store: try SQLiteStateStore(path: path))
        try await run.commitNext()
        let first = try run.walGeneration()

        // SQLite's automatic checkpoint runs inside the commit that takes the WAL past 1,000 frames, and the next
        // commit starts the WAL over, so the WAL never holds much more than 1,000 frames.
        while try run.walFrames() <= 1_100, try run.walGeneration() == first, run.committed < 10_000 {
            try await run.commitNext()
        }
        #expect(try run.walFrames() > 1_100)
        #expect(try run.walGeneration() == first, "a commit checkpointed")

        // Past the helper's interval, the commit that crosses it asks the helper, which checkpoints the whole WAL
        // while no commit comes; the next commit starts the WAL over.
        let interval = run.store.checkpointer.policy.interval
        while try run.walFrames() < interval, run.committed < 20_000 { try await run.commitNext() }
        try await waitUntil { !run.store.checkpointer.isCheckpointing }
        try await run.commitNext()
        #expect(try run.walGeneration() != first, "the WAL was started over")
        #expect(try run.walFrames() < run.store.checkpointer.policy.limit)
        try run.store.close()
    }

    /// When the helper cannot keep up (here it is never asked), the commit that takes the WAL past the limit
    /// checkpoints, so the WAL stays within the limit and one transaction's frames.
    @Test func theWALStaysWithinTheLimitWhenTheHelperFallsBehind() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        let store = try SQLiteStateStore(
            path: path, inboxRetention: StateRetention.inbox, notificationRetention: StateRetention.notifications,
            busyTimeout: .seconds(5), maximumSize: nil,
            checkpoints: SQLiteCheckpointer.Policy(interval: .max, limit: 300))
        var run = Committing(path: path, store: store)
        try await run.commitNext()
        let first = try run.walGeneration()
        while try run.walGeneration() == first, run.committed < 5_000 { try await run.commitNext() }
        #expect(try run.walGeneration() != first, "the WAL was started over")
        #expect(try run.walFrames() < 300 + 20)
        try store.close()
    }

    /// Waits, polling, until `condition` holds, for at most `hangGuard`.
    private func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + hangGuard
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
