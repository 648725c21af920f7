import GRDB

extension SQLiteStateStore {
    /// The snapshot of each load of `group`, in order: one hop to the writer's queue, each load answered as it
    /// would be alone; a load that fails (e.g. stored bytes that no longer decode) fails alone.
    ///
    /// The group runs on the writer's connection, between the commits' transactions: taking one of the pool's
    /// reader connections costs more than the queries, and the writer's page cache already holds what it wrote,
    /// where a reader would read it again from the WAL. Each query runs on its own, with no transaction around the
    /// group: it needs no isolation, since the commit checks the inbox and the version again inside its write
    /// transaction, and a transaction would tie the loads' fates together (an I/O error rolls SQLite's
    /// transaction back, and GRDB then fails every later statement of it with SQLITE_ABORT, which would hide the
    /// store's unavailability behind an error of another kind).
    static func read(_ group: [StateLoad], from pool: DatabasePool) async -> [Result<StateSnapshot, any Error>] {
        do {
            return try await pool.writeWithoutTransaction { db in
                group.map { load in Result { try read(load, in: db) } }
            }
        } catch {
            return group.map { _ in .failure(error) }
        }
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
