import Foundation
import GRDB
import Responder

/// The tables of ``SQLiteStateStore``, versioned by SQLite's `user_version`.
///
/// The tables keep their rowids. Measured with batches of 200 events (issue 24), `WITHOUT ROWID` on every table
/// wrote more pages an event (2.52 WAL frames against 2.09 with 5,000 notifications, 3.79 against 3.39 with
/// 50,000): an inbox entry then goes whole into a random leaf of its event id's key, where a rowid table appends
/// the row at its end and puts only a small index entry in a random leaf. On the notification tables alone it
/// wrote as many pages as rowids do.
enum SQLiteSchema {
    /// 1: the first tables; 2: `notification.changed_at`, for pruning notifications nothing changes; 3: the inbox
    /// keyed by event source and id; 4: ordered mode's fleet members and shard leases; 5:
    /// `notification.notification_date` and `notification.removed`, for replaced and removed notifications.
    static let version = 5

    /// Creates the tables in a fresh file, or brings a file of an earlier version up to this one. Runs inside an
    /// IMMEDIATE write transaction, so processes opening the same file at once take turns and only the first
    /// changes anything.
    static func create(_ db: Database) throws {
        let found = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        switch found {
        case version: return
        case 0:
            try createTables(db)
            try db.execute(sql: leaseTables)
        case 1:
            try addChangedAt(db)
            try keyInboxBySource(db)
            try db.execute(sql: leaseTables)
            try addLifecycle(db)
        case 2:
            try keyInboxBySource(db)
            try db.execute(sql: leaseTables)
            try addLifecycle(db)
        case 3:
            try db.execute(sql: leaseTables)
            try addLifecycle(db)
        case 4: try addLifecycle(db)
        default: throw SchemaVersionError(found: found, expected: version)
        }
        try db.execute(sql: "PRAGMA user_version = \(version)")
    }

    /// Version 1 to 2. Notifications of a version-1 file count as changed now, so the first pruning after the
    /// upgrade keeps them for a whole retention period. The time goes in as the column's default, which SQLite
    /// gives existing rows without rewriting them (every write sets the column itself).
    private static func addChangedAt(_ db: Database) throws {
        let now = Date().timeIntervalSince1970
        try db.execute(sql: "ALTER TABLE notification ADD COLUMN changed_at REAL NOT NULL DEFAULT \(now)")
    }

    /// Version 2 to 3: SQLite cannot change a primary key, so the inbox tables are built again with the source in
    /// their key and the entries copied over. The old entries' source is unknown: they get the empty source, which
    /// no event has and which matches an id from any source (`InboxEntry`), so an event processed before the
    /// upgrade is still recognised when it comes again within its retention.
    private static func keyInboxBySource(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE inbox_output RENAME TO inbox_output_v2;
                ALTER TABLE inbox RENAME TO inbox_v2;
                DROP INDEX inbox_by_processed_at;
                \(inboxTables)
                INSERT INTO inbox (event_id, source, request_identifier, processed_at)
                    SELECT event_id, '', request_identifier, processed_at FROM inbox_v2;
                INSERT INTO inbox_output (event_id, source, position, exchange, routing_key, properties, body)
                    SELECT event_id, '', position, exchange, routing_key, properties, body FROM inbox_output_v2;
                DROP TABLE inbox_output_v2;
                DROP TABLE inbox_v2;
                """)
    }

    /// Version 4 to 5. A stored notification's date is unknown (null): its next response tells it, unless it comes
    /// with another category (`NotificationRecord`). Adding columns with constant defaults rewrites no row, and
    /// processes of the previous build that share the file go on writing without the columns.
    private static func addLifecycle(_ db: Database) throws {
        try db.execute(sql: lifecycleColumns.map { "ALTER TABLE notification ADD COLUMN \($0);" }.joined())
    }

    /// The columns version 5 adds to `notification`.
    private static let lifecycleColumns = ["notification_date REAL", "removed INTEGER NOT NULL DEFAULT 0"]

    /// The inbox as version 3 has it. Its key starts with the event id, so a lookup of an id from one source and the
    /// empty one reads one range of the index. `source` defaults to the empty source: processes of the previous build
    /// that share the file (it may be shared) go on inserting without it after another process upgraded the file,
    /// and their entries then match their ids from any source, as the upgraded entries do.
    private static let inboxTables = """
        CREATE TABLE inbox (
            event_id TEXT NOT NULL,
            source TEXT NOT NULL DEFAULT '',
            request_identifier TEXT NOT NULL,
            processed_at REAL NOT NULL,
            PRIMARY KEY (event_id, source)
        );
        CREATE INDEX inbox_by_processed_at ON inbox (processed_at);
        CREATE TABLE inbox_output (
            event_id TEXT NOT NULL,
            source TEXT NOT NULL DEFAULT '',
            position INTEGER NOT NULL,
            exchange TEXT NOT NULL,
            routing_key TEXT NOT NULL,
            properties BLOB NOT NULL,
            body BLOB NOT NULL,
            PRIMARY KEY (event_id, source, position),
            FOREIGN KEY (event_id, source) REFERENCES inbox ON DELETE CASCADE
        );
        """

    /// Version 4: ordered mode's fleet (``FleetLeases/renewMembership(of:for:)``): each member with when its
    /// membership ends (seconds since 1970), and each shard's holder. A holder whose membership ended holds nothing.
    private static let leaseTables = """
        CREATE TABLE fleet_member (
            member TEXT PRIMARY KEY NOT NULL,
            expires_at REAL NOT NULL
        );
        CREATE TABLE shard_lease (
            shard INTEGER PRIMARY KEY NOT NULL,
            holder TEXT NOT NULL
        );
        """

    private static func createTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE notification (
                    request_identifier TEXT PRIMARY KEY NOT NULL,
                    category_identifier TEXT NOT NULL,
                    actions BLOB NOT NULL,
                    version INTEGER NOT NULL,
                    changed_at REAL NOT NULL,
                    \(lifecycleColumns.joined(separator: ", "))
                );
                CREATE TABLE handler_state (
                    request_identifier TEXT NOT NULL REFERENCES notification ON DELETE CASCADE,
                    handler TEXT NOT NULL,
                    state BLOB NOT NULL,
                    PRIMARY KEY (request_identifier, handler)
                );
                \(inboxTables)
                """)
    }
}

/// The state file was written by a newer (or unknown) version of the store.
struct SchemaVersionError: Error, CustomStringConvertible {
    var found: Int
    var expected: Int

    var description: String {
        "the state file has schema version \(found); this responder reads version \(expected)"
    }
}
