import GRDB
import Responder

extension SQLiteStateStore {
    /// The snapshot of each load of `group`, in order: one hop to the writer's queue, each load answered as it
    /// would be alone; a load that fails (e.g. stored bytes that no longer decode) fails alone.
    ///
    /// The group runs on the writer's connection, between the commits' transactions: taking one of the pool's
    /// reader connections costs more than the queries, and the writer's page cache already holds what it wrote,
    /// where a reader would read it again from the WAL. The group is read in one read transaction: a statement
    /// outside one starts and ends a read transaction of its own, each taking and releasing the WAL's read lock with
    /// two `fcntl` calls, which were most of the store's system calls (issue 24). If any load of the group fails,
    /// the group is read again one statement at a time, so that each failure is its own: an I/O error rolls
    /// SQLite's transaction back, and GRDB then fails every later statement of it with SQLITE_ABORT, which would
    /// hide the store's unavailability behind an error of another kind.
    static func read(_ group: [StateLoad], from pool: DatabasePool) async -> [Result<StateSnapshot, any Error>] {
        do {
            return try await pool.writeWithoutTransaction { db in
                if let snapshots = try? readTogether(group, in: db) { return snapshots.map { .success($0) } }
                return group.map { load in Result { try read(load, in: db) } }
            }
        } catch {
            return group.map { _ in .failure(error) }
        }
    }

    /// Every load of `group` in one read transaction, or the first error.
    private static func readTogether(_ group: [StateLoad], in db: Database) throws -> [StateSnapshot] {
        var snapshots: [StateSnapshot] = []
        snapshots.reserveCapacity(group.count)
        try db.inTransaction(.deferred) {
            for load in group { snapshots.append(try read(load, in: db)) }
            return .commit
        }
        return snapshots
    }

    /// The event's inbox entry (``inboxMatch(source:eventID:in:)``'s rule), else the notification.
    private static func read(_ load: StateLoad, in db: Database) throws -> StateSnapshot {
        if let stored = try inboxMatch(source: load.source, eventID: load.eventID, in: db) {
            return try InboxMatch.snapshot(
                requestIdentifier: load.requestIdentifier, storedRequestIdentifier: stored.requestIdentifier
            ) { try outputs(source: stored.source, eventID: load.eventID, in: db) }
        }
        return .unprocessed(try record(load.requestIdentifier, in: db))
    }
}
