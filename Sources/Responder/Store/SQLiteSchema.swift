import Foundation
import GRDB

/// The tables of ``SQLiteStateStore``, versioned by SQLite's `user_version`.
enum SQLiteSchema {
    /// 1: the first tables; 2: `notification.changed_at`, for pruning notifications nothing changes.
    static let version = 2

    /// Creates the tables in a fresh file, or brings a file of an earlier version up to this one. Runs inside an
    /// IMMEDIATE write transaction, so processes opening the same file at once take turns and only the first
    /// changes anything.
    static func create(_ db: Database) throws {
        let found = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        switch found {
        case version: return
        case 0: try createTables(db)
        case 1: try addChangedAt(db)
        default: throw SchemaVersionError(found: found, expected: version)
        }
    }

    /// Version 1 to 2. Notifications of a version-1 file count as changed now, so the first pruning after the
    /// upgrade keeps them for a whole retention period. The time goes in as the column's default, which SQLite
    /// gives existing rows without rewriting them (every write sets the column itself).
    private static func addChangedAt(_ db: Database) throws {
        let now = Date().timeIntervalSince1970
        try db.execute(sql: "ALTER TABLE notification ADD COLUMN changed_at REAL NOT NULL DEFAULT \(now)")
        try db.execute(sql: "PRAGMA user_version = \(version)")
    }

    private static func createTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE notification (
                    request_identifier TEXT PRIMARY KEY NOT NULL,
                    category_identifier TEXT NOT NULL,
                    actions BLOB NOT NULL,
                    version INTEGER NOT NULL,
                    changed_at REAL NOT NULL
                );
                CREATE TABLE handler_state (
                    request_identifier TEXT NOT NULL REFERENCES notification ON DELETE CASCADE,
                    handler TEXT NOT NULL,
                    state BLOB NOT NULL,
                    PRIMARY KEY (request_identifier, handler)
                );
                CREATE TABLE inbox (
                    event_id TEXT PRIMARY KEY NOT NULL,
                    request_identifier TEXT NOT NULL,
                    processed_at REAL NOT NULL
                );
                CREATE INDEX inbox_by_processed_at ON inbox (processed_at);
                CREATE TABLE inbox_output (
                    event_id TEXT NOT NULL REFERENCES inbox ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    exchange TEXT NOT NULL,
                    routing_key TEXT NOT NULL,
                    properties BLOB NOT NULL,
                    body BLOB NOT NULL,
                    PRIMARY KEY (event_id, position)
                );
                PRAGMA user_version = \(version);
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
