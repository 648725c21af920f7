import Foundation
import GRDB
import NotificationEvents
import Responder

/// The embedded ``StateStore``: one SQLite file in WAL mode, which several processes may share.
///
/// Writes are IMMEDIATE transactions, so writers of different processes take turns; a writer waits up to the
/// busy timeout for another instead of failing. A batch of commits is written in one transaction (at most 256 commits
/// a transaction); each event is still atomic, and its result is given only once its transaction has committed. A
/// batch of loads is read in one hop to the writer's queue. Outputs are stored with their exact bytes.
///
/// Durability: WAL with `synchronous = NORMAL` (GRDB's setting for WAL). A committed event survives a crash of
/// the process; after a power loss or OS crash the last transactions before it may be missing (the file stays
/// consistent), since the WAL is not synced on every commit.
public final class SQLiteStateStore: StateStore {
    public let inboxRetention: Duration
    public let notificationRetention: Duration
    let pool: DatabasePool
    let checkpointer: SQLiteCheckpointer

    /// Opens (creating if needed) the store at `path`.
    ///
    /// - Parameters:
    ///   - path: the database file; several processes may share it.
    ///   - inboxRetention: how long processed event ids are remembered (default ``StateRetention/inbox``).
    ///   - notificationRetention: how long a notification nothing changes is kept (default ``StateRetention/notifications``).
    ///   - busyTimeout: how long a write waits for another process's write (default 5 s).
    ///   - maximumSize: the most bytes the file may grow to (SQLite's `max_page_count`), or nil for no limit. A write
    ///     that needs more fails like a full disk (``StateStoreUnavailable``) until pruning frees room.
    public convenience init(
        path: String, inboxRetention: Duration = StateRetention.inbox,
        notificationRetention: Duration = StateRetention.notifications, busyTimeout: Duration = .seconds(5),
        maximumSize: Int? = nil
    ) throws {
        try self.init(
            path: path, inboxRetention: inboxRetention, notificationRetention: notificationRetention,
            busyTimeout: busyTimeout, maximumSize: maximumSize, checkpoints: .standard)
    }

    /// ``init(path:inboxRetention:notificationRetention:busyTimeout:maximumSize:)`` with the WAL checkpointed as
    /// `checkpoints` says (`SQLiteCheckpointer`).
    init(
        path: String, inboxRetention: Duration, notificationRetention: Duration, busyTimeout: Duration,
        maximumSize: Int?, checkpoints: SQLiteCheckpointer.Policy
    ) throws {
        let checkpointer = SQLiteCheckpointer(policy: checkpoints)
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout.timeInterval)
        configuration.label = "responder-state"
        configuration.prepareDatabase { db in
            // A checkpoint that empties the WAL cuts the file back to this size, so one burst of writes (a large
            // prune) does not leave a huge WAL behind for good.
            try db.execute(sql: "PRAGMA journal_size_limit = \(Self.walSizeLimit)")
            if let maximumSize {
                let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
                try db.execute(sql: "PRAGMA max_page_count = \(max(1, maximumSize / pageSize))")
            }
            checkpointer.watchCommits(of: db)
        }
        self.inboxRetention = inboxRetention
        self.notificationRetention = notificationRetention
        let pool = try DatabasePool(path: path, configuration: configuration)
        self.pool = pool
        try pool.write(SQLiteSchema.create)
        try checkpointer.start(path: path, busyTimeout: busyTimeout)
        self.checkpointer = checkpointer
    }

    /// The size the WAL is cut back to when a checkpoint empties it: 32 MiB, a little more than the most the
    /// checkpointer (`SQLiteCheckpointer.Policy.standard`, 6,000 pages) lets it reach while no reader holds it back.
    static let walSizeLimit = 32 << 20

    /// Closes the file; the store must not be used afterwards.
    public func close() throws {
        try pool.close()
        try checkpointer.close()
    }

    /// Reads the loads `maximumBatch` at a time, each group in one hop to the writer's queue
    /// (`SQLiteStateStore.read(_:from:)`).
    public func load(_ loads: [StateLoad]) async throws -> [Result<StateSnapshot, any Error>] {
        var snapshots: [Result<StateSnapshot, any Error>] = []
        snapshots.reserveCapacity(loads.count)
        for start in stride(from: 0, to: loads.count, by: Self.maximumBatch) {
            let group = Array(loads[start..<min(start + Self.maximumBatch, loads.count)])
            snapshots += await Self.read(group, from: pool).map { $0.mapError(SQLiteUnavailability.map) }
        }
        return snapshots
    }

    /// Writes the commits `maximumBatch` at a time, each group in one transaction
    /// (`SQLiteStateStore.write(_:chains:to:)`).
    public func commit(_ commits: [StateCommit]) async throws -> [Result<CommitResult, any Error>] {
        var results: [Result<CommitResult, any Error>] = []
        results.reserveCapacity(commits.count)
        var chains = CommitChains()
        for start in stride(from: 0, to: commits.count, by: Self.maximumBatch) {
            let group = Array(commits[start..<min(start + Self.maximumBatch, commits.count)])
            results += await Self.write(group, chains: &chains, to: pool).map { $0.mapError(SQLiteUnavailability.map) }
        }
        return results
    }

    public func inboxEntries(of requestIdentifier: String, limit: Int) async throws -> [InboxEntry] {
        try await SQLiteUnavailability.mapping {
            try await pool.read { db in
                // An operator's query, not the event path's: GRDB's rows are fine here.
                let keys = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT source, event_id, processed_at FROM inbox WHERE request_identifier = ?
                        ORDER BY processed_at DESC LIMIT ?
                        """, arguments: [requestIdentifier, limit]
                ).map { row -> (source: String, eventID: String, processedAt: Double) in
                    (row[0], row[1], row[2])
                }
                return try keys.map { key in
                    InboxEntry(
                        source: key.source, eventID: key.eventID, requestIdentifier: requestIdentifier,
                        outputs: try Self.outputs(source: key.source, eventID: key.eventID, in: db),
                        processedAt: Date(timeIntervalSince1970: key.processedAt))
                }
            }
        }
    }

    public func notification(_ requestIdentifier: String) async throws -> NotificationRecord? {
        try await SQLiteUnavailability.mapping { try await pool.read { db in try Self.record(requestIdentifier, in: db) } }
    }

    /// A write transaction that takes the write lock, stores an inbox entry with a 64 KiB output (so the file must
    /// have room to grow), and rolls back: it fails as a commit would on a full disk or `max_page_count`, a lock
    /// held past the busy timeout, a read-only, corrupt or unopenable file. It cannot prove the disk has room for
    /// the WAL to grow, since nothing is written; the next commits prove that.
    public func checkAvailability() async throws {
        try await SQLiteUnavailability.mapping {
            try await pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    // Position -1 is never an output's, and a stored event of the probe's id is left alone.
                    try db.execute(
                        sql: """
                            INSERT INTO inbox (event_id, source, request_identifier, processed_at) VALUES (?, '', '', 0)
                            ON CONFLICT DO NOTHING;
                            INSERT INTO inbox_output (event_id, source, position, exchange, routing_key, properties, body)
                            VALUES (?, '', -1, '', '', x'', zeroblob(65536));
                            """, arguments: [Self.probeEventID, Self.probeEventID])
                    return .rollback
                }
            }
        }
    }

    private static let probeEventID = "responder-availability-probe"

    /// Writes `commit` inside the current transaction, or nothing when the event was processed already (for its
    /// notification or another) or the notification's version moved on. It leaves nothing behind unless it throws
    /// (the inbox and the version are checked before anything is written), and a transaction whose commit threw
    /// must be rolled back.
    static func apply(_ commit: StateCommit, in db: Database) throws -> CommitResult {
        let entry = commit.inboxEntry
        // The write transaction holds the inbox still between the lookup and the insert.
        if let stored = try inboxMatch(source: entry.source, eventID: entry.eventID, in: db) {
            return try InboxMatch.commitResult(
                requestIdentifier: entry.requestIdentifier, storedRequestIdentifier: stored.requestIdentifier
            ) { try outputs(source: stored.source, eventID: entry.eventID, in: db) }
        }
        if let record = commit.notification,
            try !write(
                record, actionsChanged: commit.actionsChanged, replacesHandlerStates: commit.replacesHandlerStates,
                changedAt: entry.processedAt, in: db)
        {
            return .versionConflict
        }
        try SQLiteStatement.with(
            "INSERT INTO inbox (event_id, source, request_identifier, processed_at) VALUES (?, ?, ?, ?)", in: db
        ) { insert in
            try insert.bind(1, entry.eventID)
            try insert.bind(2, entry.source)
            try insert.bind(3, entry.requestIdentifier)
            try insert.bind(4, entry.processedAt.timeIntervalSince1970)
            try insert.execute()
        }
        for (position, output) in entry.outputs.enumerated() {
            try SQLiteStatement.with(
                """
                INSERT INTO inbox_output (event_id, source, position, exchange, routing_key, properties, body)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, in: db
            ) { insert in
                try insert.bind(1, entry.eventID)
                try insert.bind(2, entry.source)
                try insert.bind(3, Int64(position))
                try insert.bind(4, output.exchange)
                try insert.bind(5, output.routingKey)
                try insert.bind(6, output.properties.storedBytes)
                try insert.bind(7, output.body)
                try insert.execute()
            }
        }
        return .committed
    }

    /// The inbox entry an event of `source` and `eventID` matches: its own, else one of the empty source (stored
    /// before the inbox knew sources); nil when there is none.
    ///
    /// Two lookups of the key joined by UNION ALL, not `source IN (?, '')` (nor an ORDER BY): SQLite builds a
    /// temporary b-tree for an IN list that drives an index, which cost more than the rest of the query (issue 24).
    /// SQLite leaves the order of a compound select's rows undefined, so the own source's row is picked here.
    static func inboxMatch(
        source: String, eventID: String, in db: Database
    ) throws -> (source: String, requestIdentifier: String)? {
        try SQLiteStatement.with(
            """
            SELECT source, request_identifier FROM inbox WHERE event_id = ?1 AND source = ?2
            UNION ALL SELECT source, request_identifier FROM inbox WHERE event_id = ?1 AND source = ''
            """, in: db
        ) { select in
            try select.bind(1, eventID)
            try select.bind(2, source)
            var match: (source: String, requestIdentifier: String)?
            while try select.step() {
                match = (select.text(0), select.text(1))
                if match!.source == source { break }
            }
            return match
        }
    }

    /// Writes `record`, changed at `changedAt`, if the stored version is still the one it was loaded with; false
    /// (and nothing written) on a conflict. Unchanged actions are left as stored, which saves encoding and writing
    /// them; so are the stored states of handlers the record has none for, unless `replacesHandlerStates`.
    private static func write(
        _ record: NotificationRecord, actionsChanged: Bool, replacesHandlerStates: Bool, changedAt: Date,
        in db: Database
    ) throws -> Bool {
        let changed = changedAt.timeIntervalSince1970
        if record.version == 0 {
            try SQLiteStatement.with(
                """
                INSERT INTO notification
                    (request_identifier, category_identifier, actions, version, changed_at, notification_date, removed)
                VALUES (?, ?, ?, 1, ?, ?, ?) ON CONFLICT DO NOTHING
                """, in: db
            ) { insert in
                try insert.bind(1, record.requestIdentifier)
                try insert.bind(2, record.categoryIdentifier)
                try insert.bind(3, EventCodec.encode(record.actions))
                try insert.bind(4, changed)
                if let date = record.notificationDate { try insert.bind(5, date.timeIntervalSince1970) }
                try insert.bind(6, Int64(record.isRemoved ? 1 : 0))
                try insert.execute()
            }
        } else {
            // Parameters 1 and 2 stay unbound (NULL, so COALESCE keeps what is stored) when the actions did not change.
            try SQLiteStatement.with(
                """
                UPDATE notification SET category_identifier = COALESCE(?, category_identifier),
                    actions = COALESCE(?, actions), version = version + 1, changed_at = ?, notification_date = ?,
                    removed = ?
                WHERE request_identifier = ? AND version = ?
                """, in: db
            ) { update in
                if actionsChanged {
                    try update.bind(1, record.categoryIdentifier)
                    try update.bind(2, EventCodec.encode(record.actions))
                }
                try update.bind(3, changed)
                if let date = record.notificationDate { try update.bind(4, date.timeIntervalSince1970) }
                try update.bind(5, Int64(record.isRemoved ? 1 : 0))
                try update.bind(6, record.requestIdentifier)
                try update.bind(7, record.version)
                try update.execute()
            }
        }
        guard db.changesCount == 1 else { return false }
        if replacesHandlerStates {
            try SQLiteStatement.with("DELETE FROM handler_state WHERE request_identifier = ?", in: db) { delete in
                try delete.bind(1, record.requestIdentifier)
                try delete.execute()
            }
        }
        for (handler, state) in record.handlerStates {
            try SQLiteStatement.with(
                """
                INSERT INTO handler_state (request_identifier, handler, state) VALUES (?, ?, ?)
                ON CONFLICT (request_identifier, handler) DO UPDATE SET state = excluded.state
                """, in: db
            ) { upsert in
                try upsert.bind(1, record.requestIdentifier)
                try upsert.bind(2, handler)
                try upsert.bind(3, state)
                try upsert.execute()
            }
        }
        return true
    }

    /// The notification with its handlers' states, read in one query (one row per handler state).
    static func record(_ requestIdentifier: String, in db: Database) throws -> NotificationRecord? {
        try SQLiteStatement.with(
            """
            SELECT n.category_identifier, n.actions, n.version, n.notification_date, n.removed, s.handler, s.state
            FROM notification n LEFT JOIN handler_state s ON s.request_identifier = n.request_identifier
            WHERE n.request_identifier = ?
            """, in: db
        ) { select -> StoredRecord? in
            try select.bind(1, requestIdentifier)
            guard try select.step() else { return nil }
            return try StoredRecord(select)
        }?.record(requestIdentifier)
    }

    /// A notification's row and its handler-state rows as ``record(_:in:)``'s query returns them: category
    /// identifier, actions, version, notification date, removed, handler and state (null when there is no state).
    /// Reads the current row and all that follow.
    struct StoredRecord {
        var categoryIdentifier: String
        var actions: [UInt8]
        var version: Int64
        var notificationDate: Date?
        var isRemoved: Bool
        var states: [String: [UInt8]] = [:]

        init(_ select: SQLiteStatement) throws {
            categoryIdentifier = select.text(0)
            actions = select.blob(1)
            version = select.integer(2)
            notificationDate = select.isNull(3) ? nil : Date(timeIntervalSince1970: select.double(3))
            isRemoved = select.integer(4) != 0
            repeat {
                if !select.isNull(5) { states[select.text(5)] = select.blob(6) }
            } while try select.step()
        }

        func record(_ requestIdentifier: String) throws -> NotificationRecord {
            NotificationRecord(
                requestIdentifier: requestIdentifier, categoryIdentifier: categoryIdentifier,
                actions: try EventCodec.decodeStored([NotificationAction].self, from: actions), handlerStates: states,
                version: version, notificationDate: notificationDate, isRemoved: isRemoved)
        }
    }

    /// The stored outputs of the inbox entry of `source` and `eventID` (exactly that key).
    static func outputs(source: String, eventID: String, in db: Database) throws -> [OutboundMessage] {
        try SQLiteStatement.with(
            """
            SELECT exchange, routing_key, properties, body FROM inbox_output
            WHERE event_id = ? AND source = ? ORDER BY position
            """, in: db
        ) { select in
            try select.bind(1, eventID)
            try select.bind(2, source)
            var outputs: [OutboundMessage] = []
            while try select.step() {
                outputs.append(
                    OutboundMessage(
                        exchange: select.text(0), routingKey: select.text(1), body: select.blob(3),
                        properties: try MessageProperties(storedBytes: select.blob(2))))
            }
            return outputs
        }
    }
}
