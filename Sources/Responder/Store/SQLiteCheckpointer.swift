import GRDB
import GRDBSQLite
import Synchronization

/// Keeps the WAL's checkpoints off the commit path: a commit appends its frames and returns, and once the WAL holds
/// ``threshold`` frames a PASSIVE checkpoint copies them into the database file on a connection of its own while the
/// writer goes on committing.
///
/// SQLite's automatic checkpoint runs inside whichever commit takes the WAL past 1,000 frames, so that commit, and
/// every commit queued behind it, waits for the checkpoint's writes and its two syncs (the WAL's and the file's).
/// The writer's connection gets a WAL hook instead of SQLite's (a connection has one), which only notes the WAL's
/// size after each commit. Only when the WAL reaches ``backstop`` frames (the background checkpoints could not keep
/// up) does a write transaction's caller wait for a checkpoint, which bounds the WAL.
///
/// A PASSIVE checkpoint never waits for a lock and never blocks a writer or a reader; it copies the frames no reader
/// still needs, and the next write transaction starts the WAL over once all of them are copied (cutting the file back
/// to ``SQLiteStateStore/walSizeLimit``). Durability does not depend on it: a committed transaction is in the WAL,
/// and a checkpoint that fails (an I/O error, a full disk) leaves it there for the next one. Like SQLite's automatic
/// checkpoint, a failed checkpoint is not reported by itself; the WAL then grows, every write past the backstop tries
/// again, and a disk that fills up fails the next commit as ``StateStoreUnavailable``.
final class SQLiteCheckpointer: Sendable {
    /// WAL frames after which a background checkpoint starts: SQLite's own automatic threshold.
    static let threshold: Int32 = 1_000
    /// WAL frames after which a write transaction's caller waits for a checkpoint.
    static let backstop: Int32 = 4_000

    private let connection: DatabaseQueue
    private let framesInWAL = Atomic<Int32>(0)
    private let isCheckpointing = Atomic<Bool>(false)

    /// A checkpointer for the database at `path` (already in WAL mode), with a connection of its own.
    init(path: String) throws {
        var configuration = Configuration()
        configuration.label = "responder-state-checkpoint"
        connection = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Replaces the automatic checkpoint of `writer`, the one connection that writes. The hook holds this object
    /// unretained: whatever writes on `writer` must hold it (the store's group commit does).
    func take(over writer: Database) {
        sqlite3_wal_hook(writer.sqliteConnection, Self.hook, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Called after each write transaction: past ``backstop`` frames it checkpoints and returns when that is done
    /// (after the one that may be running); past ``threshold`` it starts a checkpoint in the background, unless one
    /// runs, and returns at once.
    func afterWrite() async {
        let frames = framesInWAL.load(ordering: .relaxed)
        if frames >= Self.backstop {
            // A failure leaves the frames in the WAL for the next checkpoint (see the type's comment).
            try? await checkpoint()
        } else if frames >= Self.threshold,
            isCheckpointing.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        {
            Task {
                try? await checkpoint()
                isCheckpointing.store(false, ordering: .releasing)
            }
        }
    }

    /// Copies what it can of the WAL into the file now, without waiting for anyone (PASSIVE), on the checkpointer's
    /// connection, so the next write can start the WAL over and cut it back to ``SQLiteStateStore/walSizeLimit``;
    /// readers of other processes that still need old frames only leave those for a later checkpoint (TRUNCATE
    /// would wait for them).
    func checkpoint() async throws {
        try await connection.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
    }

    /// Closes the checkpointer's connection.
    func close() throws {
        try connection.close()
    }

    /// The writer's WAL hook, called after each commit with the number of frames in the WAL.
    private static let hook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 = {
        context, _, _, frames in
        if let context {
            Unmanaged<SQLiteCheckpointer>.fromOpaque(context).takeUnretainedValue().framesInWAL.store(frames, ordering: .relaxed)
        }
        return SQLITE_OK
    }
}
