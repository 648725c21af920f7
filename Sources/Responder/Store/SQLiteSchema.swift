import GRDB

/// The tables of ``SQLiteStateStore``, versioned by SQLite's `user_version`.
enum SQLiteSchema {
    static let version = 1

    /// Creates the tables in a fresh file. Runs inside an IMMEDIATE write transaction, so processes opening the
    /// same new file at once take turns and only the first creates anything.
    static func create(_ db: Database) throws {
        let found = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard found != version else { return }
        guard found == 0 else { throw SchemaVersionError(found: found, expected: version) }
        try db.execute(
            sql: """
                CREATE TABLE notification (
                    request_identifier TEXT PRIMARY KEY NOT NULL,
                    category_identifier TEXT NOT NULL,
                    actions BLOB NOT NULL,
                    version INTEGER NOT NULL
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
