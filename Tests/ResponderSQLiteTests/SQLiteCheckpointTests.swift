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

    /// Pruning's checkpoint (``SQLiteCheckpointer/checkpoint()``) is refused at once while another connection to
    /// the file checkpoints (another process's helper): the rows are deleted by then, so the pruning reports them
    /// rather than "database is locked" (seen in CI: a test pruning a worker's file as an operator would).
    /// Another connection is held inside a FULL checkpoint, with the checkpoint lock, waiting in its busy handler
    /// for the write lock a third connection holds.
    @Test func pruningsCheckpointIsNoFailureWhileAnotherConnectionCheckpoints() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        var run = Committing(path: path, store: try SQLiteStateStore(path: path))
        try await run.commitNext()
        var writer: OpaquePointer?
        var checkpointing: OpaquePointer?
        #expect(sqlite3_open(path, &writer) == SQLITE_OK)
        #expect(sqlite3_open(path, &checkpointing) == SQLITE_OK)
        // A connection opens the WAL at its first read; a checkpoint before it does nothing.
        #expect(sqlite3_exec(checkpointing, "SELECT count(*) FROM inbox", nil, nil, nil) == SQLITE_OK)
        #expect(sqlite3_exec(writer, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
        let gate = BusyGate()
        sqlite3_busy_handler(checkpointing, BusyGate.handler, Unmanaged.passUnretained(gate).toOpaque())
        let connection = SendableConnection(checkpointing)
        let checkpointed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            // Refused in the end: the handler gives up once the gate opens.
            _ = sqlite3_wal_checkpoint_v2(connection.pointer, nil, SQLITE_CHECKPOINT_FULL, nil, nil)
            checkpointed.signal()
        }
        #expect(await gate.entered.waitWithoutBlocking(), "the other connection checkpoints")

        await #expect(throws: Never.self) { try await run.store.checkpointer.checkpoint() }

        gate.release.signal()
        #expect(await checkpointed.waitWithoutBlocking())
        #expect(sqlite3_exec(writer, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(writer)
        sqlite3_close(checkpointing)
        try run.store.close()
    }

    /// A busy handler that, the first time SQLite calls it, says so and waits until the test lets it go, then gives
    /// up.
    private final class BusyGate: Sendable {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        static let handler: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { context, calls in
            let gate = Unmanaged<BusyGate>.fromOpaque(context!).takeUnretainedValue()
            if calls == 0 {
                gate.entered.signal()
                gate.release.wait()
            }
            return 0
        }
    }

    /// A connection handed to the thread that uses it while the test does not.
    private struct SendableConnection: @unchecked Sendable {
        let pointer: OpaquePointer?
        init(_ pointer: OpaquePointer?) { self.pointer = pointer }
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

extension DispatchSemaphore {
    /// Waits for the semaphore on a thread of Dispatch's, not the test's, for at most `hangGuard`; says whether it
    /// was signalled.
    fileprivate func waitWithoutBlocking() async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: self.wait(timeout: .now() + hangGuard.timeInterval) == .success)
            }
        }
    }
}
