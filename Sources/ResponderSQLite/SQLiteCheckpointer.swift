import Dispatch
import GRDB
import GRDBSQLite
import Responder
import Synchronization

/// Checkpoints the WAL of an ``SQLiteStateStore`` on a connection of its own, so that commits copy no more than a
/// few frames.
///
/// SQLite's automatic checkpoint runs inside whichever commit takes the WAL past 1,000 frames, and that commit
/// (with every batch queued behind it) waits for the whole copy and its fsyncs. Instead, SQLite's WAL hook, which
/// it calls after each of the writer's commits with the number of frames in the WAL, asks a helper for a PASSIVE
/// checkpoint every ``Policy/interval`` new frames. The helper copies the frames while commits go on appending,
/// and passes again while a pass copied some but not all. The WAL can only start over (from its beginning, the
/// file cut back to `journal_size_limit`) at a write that finds it wholly copied, so when commits kept appending
/// through the helper's last pass, the next commit copies that tail itself: the frames written during one pass,
/// not the thousand before it.
///
/// What bounds the WAL: the interval and what is written during one of the helper's runs, and in any case
/// ``Policy/limit`` frames (and one transaction), past which a commit waits for the helper's run and checkpoints
/// itself as SQLite's automatic checkpoint would: writes that outpace the helper are held back, not let grow the
/// WAL. With several processes on one file, each process's commits count the frames of the
/// shared WAL and ask their own helper (their checkpoints take turns: a PASSIVE one skips while another runs), so
/// any process that writes keeps the WAL in check. As with any checkpoint, a reader of any process still reading
/// an old snapshot holds back the frames it may need.
final class SQLiteCheckpointer: Sendable {
    /// When the WAL is checkpointed, in frames (pages) of the WAL.
    struct Policy: Sendable {
        /// How many new frames make the writer ask the helper for a checkpoint.
        var interval: Int
        /// How many frames make a commit checkpoint itself, because the helper could not catch up.
        var limit: Int

        /// About 8 MiB of 4 KiB pages between the helper's checkpoints, and at most three times that in the WAL.
        static let standard = Policy(interval: 2_000, limit: 6_000)
    }

    private struct State {
        /// The helper's connection, once the store has opened it.
        var helper: DatabaseQueue?
        /// The WAL's frame count when the helper was last asked; it starts again from zero when the WAL does.
        var requestedAt = 0
        /// The WAL's frame count after the latest commit.
        var frames = 0
        var isCheckpointing = false
        /// Whether commits appended to the WAL during the helper's last pass, which the next commit copies.
        var tailRemains = false
    }

    /// The most passes of one helper run: each costs two fsyncs, and the tail left after them is short.
    private static let maximumPasses = 3

    let policy: Policy
    private let state = Mutex(State())
    /// Holds the helper's run, which a commit past the limit waits for.
    private let helperRun = DispatchGroup()

    init(policy: Policy) {
        self.policy = policy
    }

    /// Makes the commits of `db` (the store's writer) report to this checkpointer instead of checkpointing.
    /// SQLite keeps one WAL hook a connection, and this one replaces the automatic checkpoint's.
    func watchCommits(of db: Database) {
        // The configuration that runs this setup holds the checkpointer for as long as the connection lives.
        sqlite3_wal_hook(db.sqliteConnection, Self.committed, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Starts the helper on its own connection to the file at `path`, which waits up to `busyTimeout` for a lock as
    /// the store's own connections do (another connection to the file closing holds it for a moment); commits
    /// before it ask no one.
    func start(path: String, busyTimeout: Duration) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout.timeInterval)
        configuration.label = "responder-state-checkpoint"
        let helper = try DatabaseQueue(path: path, configuration: configuration)
        state.withLock { $0.helper = helper }
    }

    /// Whether the helper is checkpointing now.
    var isCheckpointing: Bool { state.withLock { $0.isCheckpointing } }

    /// A PASSIVE checkpoint on the helper's connection, waited for: pruning's, after it deleted many rows, so the
    /// next write can start the WAL over and cut it back. It waits for no one; TRUNCATE would wait for readers
    /// still using old frames, holding up commits.
    ///
    /// SQLite refuses a PASSIVE checkpoint at once with SQLITE_BUSY, busy timeout or not, while another connection
    /// to the file holds the checkpoint lock (another process's helper, a writer copying its tail, a recovery). The
    /// rows are deleted by then, so the refusal is no failure of the pruning: the WAL is left to the next
    /// checkpoint, as after any pass the helper skips.
    func checkpoint() async throws {
        guard let helper = state.withLock({ $0.helper }) else { return }
        try await helper.writeWithoutTransaction { db in
            do {
                _ = try db.checkpoint(.passive)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                return
            }
        }
    }

    /// Closes the helper's connection, after any checkpoint it is running.
    func close() throws {
        try state.withLock { state in
            defer { state.helper = nil }
            return state.helper
        }?.close()
    }

    private static let committed: @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32
    ) -> Int32 = { context, connection, _, frames in
        guard let context else { return SQLITE_OK }
        Unmanaged<SQLiteCheckpointer>.fromOpaque(context).takeUnretainedValue()
            .committed(frames: Int(frames), on: connection)
        return SQLITE_OK
    }

    /// After a commit of the writer's, with `frames` frames in the WAL.
    private func committed(frames: Int, on connection: OpaquePointer?) {
        let (helper, copiesTail) = state.withLock { state -> (DatabaseQueue?, Bool) in
            state.frames = frames
            if frames < state.requestedAt { state.requestedAt = 0 }
            if frames >= policy.limit || state.tailRemains {
                state.tailRemains = false
                return (nil, true)
            }
            guard let helper = state.helper, !state.isCheckpointing, frames - state.requestedAt >= policy.interval
            else { return (nil, false) }
            state.requestedAt = frames
            state.isCheckpointing = true
            helperRun.enter()
            return (helper, false)
        }
        if copiesTail {
            // The commit has been written; only its caller's answer waits for this. Past the limit, the helper is
            // behind: the commit waits for its run (two checkpoints cannot run at once) rather than let the WAL
            // grow further.
            if frames >= policy.limit { helperRun.wait() }
            sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        }
        helper?.asyncWriteWithoutTransaction { [self] db in
            var copied = 0
            for _ in 0..<Self.maximumPasses {
                // An error (the file went away, the disk failed) is the commits' to report.
                guard let pass = try? db.checkpoint(.passive) else { break }
                copied = pass.checkpointedFrameCount
                // A pass copies the frames there were when it started; commits may have appended more since.
                if state.withLock({ $0.frames }) <= copied { break }
            }
            state.withLock { state in
                state.isCheckpointing = false
                state.tailRemains = state.frames > copied
            }
            helperRun.leave()
        }
    }
}
