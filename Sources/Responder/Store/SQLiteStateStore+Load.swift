import GRDB

extension SQLiteStateStore {
    /// The snapshot of each load of `group`, in order: one hop to the writer's queue, one
    /// statement stepped per load, each answered as it would be alone; a load that fails (e.g. stored bytes that no
    /// longer decode) fails alone.
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

    /// One query finds the event's inbox entry (``inboxMatch(source:eventID:in:)``'s rule) and reads the
    /// notification.
    private static func read(_ load: StateLoad, in db: Database) throws -> StateSnapshot {
        let found = try SQLiteStatement.with(
            """
            SELECT i.source, i.request_identifier, n.category_identifier, n.actions, n.version, n.notification_date,
                n.removed, s.handler, s.state
            FROM (SELECT ?1 AS id) AS wanted
            LEFT JOIN (
                SELECT source, request_identifier FROM inbox WHERE event_id = ?2 AND source IN (?3, '')
                ORDER BY source DESC LIMIT 1
            ) AS i ON 1
            LEFT JOIN notification n ON n.request_identifier = wanted.id
            LEFT JOIN handler_state s ON s.request_identifier = wanted.id
            """, in: db
        ) { select -> (inbox: (source: String, requestIdentifier: String)?, record: StoredRecord?) in
            try select.bind(1, load.requestIdentifier)
            try select.bind(2, load.eventID)
            try select.bind(3, load.source)
            guard try select.step() else { return (nil, nil) }
            if !select.isNull(0) { return ((select.text(0), select.text(1)), nil) }
            return (nil, try StoredRecord(select, from: 2))
        }
        if let stored = found.inbox {
            return try InboxMatch.snapshot(
                requestIdentifier: load.requestIdentifier, storedRequestIdentifier: stored.requestIdentifier
            ) { try outputs(source: stored.source, eventID: load.eventID, in: db) }
        }
        return .unprocessed(try found.record?.record(load.requestIdentifier))
    }
}
