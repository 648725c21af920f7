import Foundation
import GRDB
import NotificationEvents

/// The embedded ``StateStore``: one SQLite file in WAL mode, which several processes may share.
///
/// Every commit is one IMMEDIATE transaction, so writers of different processes take turns; a writer waits up
/// to the busy timeout for another instead of failing. Outputs are stored with their exact bytes.
public final class SQLiteStateStore: StateStore {
    public let inboxRetention: Duration
    private let pool: DatabasePool

    /// Opens (creating if needed) the store at `path`.
    ///
    /// - Parameters:
    ///   - inboxRetention: how long processed event ids are remembered (default 7 days).
    ///   - busyTimeout: how long a write waits for another process's write (default 5 s).
    public init(
        path: String, inboxRetention: Duration = .seconds(7 * 24 * 3600), busyTimeout: Duration = .seconds(5)
    ) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout.timeInterval)
        configuration.label = "responder-state"
        self.inboxRetention = inboxRetention
        self.pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write(SQLiteSchema.create)
    }

    /// Closes the file; the store must not be used afterwards.
    public func close() throws {
        try pool.close()
    }

    public func load(requestIdentifier: String, eventID: String) async throws -> StateSnapshot {
        try await pool.read { db in
            if let outputs = try Self.outputs(of: eventID, in: db) { return .processed(outputs) }
            return .unprocessed(try Self.record(requestIdentifier, in: db))
        }
    }

    public func commit(_ commit: StateCommit) async throws -> CommitResult {
        try await pool.write { db in
            let entry = commit.inboxEntry
            if let outputs = try Self.outputs(of: entry.eventID, in: db) { return .alreadyProcessed(outputs) }
            if let record = commit.notification {
                guard try Self.write(record, in: db) else { return .versionConflict }
            }
            try db.execute(
                sql: "INSERT INTO inbox (event_id, request_identifier, processed_at) VALUES (?, ?, ?)",
                arguments: [entry.eventID, entry.requestIdentifier, entry.processedAt.timeIntervalSince1970])
            for (position, output) in entry.outputs.enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO inbox_output (event_id, position, exchange, routing_key, properties, body)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        entry.eventID, position, output.exchange, output.routingKey,
                        Data(EventCodec.encode(output.properties)), Data(output.body),
                    ])
            }
            return .committed
        }
    }

    public func notification(_ requestIdentifier: String) async throws -> NotificationRecord? {
        try await pool.read { db in try Self.record(requestIdentifier, in: db) }
    }

    public func pruneInbox(processedBefore cutoff: Date) async throws -> Int {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM inbox WHERE processed_at < ?", arguments: [cutoff.timeIntervalSince1970])
            return db.changesCount
        }
    }

    /// Writes `record` if the stored version is still the one it was loaded with; false on a conflict.
    private static func write(_ record: NotificationRecord, in db: Database) throws -> Bool {
        let actions = Data(EventCodec.encode(record.actions))
        if record.version == 0 {
            try db.execute(
                sql: """
                    INSERT INTO notification (request_identifier, category_identifier, actions, version)
                    VALUES (?, ?, ?, 1) ON CONFLICT (request_identifier) DO NOTHING
                    """,
                arguments: [record.requestIdentifier, record.categoryIdentifier, actions])
        } else {
            try db.execute(
                sql: """
                    UPDATE notification SET category_identifier = ?, actions = ?, version = version + 1
                    WHERE request_identifier = ? AND version = ?
                    """,
                arguments: [record.categoryIdentifier, actions, record.requestIdentifier, record.version])
        }
        guard db.changesCount == 1 else { return false }
        for (handler, state) in record.handlerStates {
            try db.execute(
                sql: """
                    INSERT INTO handler_state (request_identifier, handler, state) VALUES (?, ?, ?)
                    ON CONFLICT (request_identifier, handler) DO UPDATE SET state = excluded.state
                    """,
                arguments: [record.requestIdentifier, handler, Data(state)])
        }
        return true
    }

    private static func record(_ requestIdentifier: String, in db: Database) throws -> NotificationRecord? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT category_identifier, actions, version FROM notification WHERE request_identifier = ?",
                arguments: [requestIdentifier])
        else { return nil }
        var states: [String: [UInt8]] = [:]
        let stateRows = try Row.fetchAll(
            db, sql: "SELECT handler, state FROM handler_state WHERE request_identifier = ?",
            arguments: [requestIdentifier])
        for stateRow in stateRows {
            let state: Data = stateRow["state"]
            states[stateRow["handler"]] = Array(state)
        }
        let actions: Data = row["actions"]
        return NotificationRecord(
            requestIdentifier: requestIdentifier, categoryIdentifier: row["category_identifier"],
            actions: try EventCodec.decodeStored([NotificationAction].self, from: actions), handlerStates: states,
            version: row["version"])
    }

    /// The stored outputs of `eventID`, or nil when it is not in the inbox.
    private static func outputs(of eventID: String, in db: Database) throws -> [OutboundMessage]? {
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM inbox WHERE event_id = ?", arguments: [eventID]) != nil
        else { return nil }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT exchange, routing_key, properties, body FROM inbox_output
                WHERE event_id = ? ORDER BY position
                """,
            arguments: [eventID])
        return try rows.map { row in
            let properties: Data = row["properties"]
            let body: Data = row["body"]
            return OutboundMessage(
                exchange: row["exchange"], routingKey: row["routing_key"], body: Array(body),
                properties: try EventCodec.decodeStored(MessageProperties.self, from: properties))
        }
    }
}
