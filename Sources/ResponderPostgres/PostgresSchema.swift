import Logging
import PostgresNIO

/// The numbered migrations of ``PostgresStateStore``'s tables, applied in order, each once, recorded in
/// `responder_schema_migration`.
///
/// They run on one connection holding an advisory lock keyed by the schema's name, so workers starting together
/// take turns and only the first applies anything; each migration is one transaction with its record. A schema
/// with a migration newer than this build knows is refused ( ``PostgresSchemaTooNew``).
enum PostgresSchema {
    /// Version N is `migrations[N - 1]`.
    static let migrations: [[String]] = [
        // 1: the first tables. A notification's handler states and an event's outputs are columns (StoredBytes)
        // so a commit writes one row per table. The notification table has no index on changed_at: every commit
        // sets it, and an index would make each of those updates non-HOT (a new entry in every index); the hourly
        // pruning scans instead. The inbox, insert-only, is indexed by what it is pruned by.
        [
            """
            CREATE TABLE notification (
                request_identifier text PRIMARY KEY,
                category_identifier text NOT NULL,
                actions bytea NOT NULL,
                handler_states bytea NOT NULL,
                version bigint NOT NULL,
                changed_at timestamptz NOT NULL
            ) WITH (fillfactor = 80)
            """,
            """
            CREATE TABLE inbox (
                event_id text PRIMARY KEY,
                request_identifier text NOT NULL,
                processed_at timestamptz NOT NULL,
                outputs bytea NOT NULL
            )
            """,
            "CREATE INDEX inbox_by_processed_at ON inbox (processed_at)",
        ]
    ]

    /// The newest version this build knows.
    static var version: Int { migrations.count }

    /// The advisory lock's first key; the second is the hash of the schema's name.
    static let lockClass: Int32 = 0x5245_5300

    /// Brings the schema of `url` up to ``version``; returns the version found and the version left.
    static func migrate(_ url: PostgresURL, logger: Logger) async throws -> (found: Int, now: Int) {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: try url.connectionConfiguration(), id: 1, logger: logger)
        } catch {
            throw Self.explained(error)
        }
        do {
            let result = try await migrate(schema: url.schema, on: connection, logger: logger)
            try await connection.close()
            return result
        } catch {
            // Closing the session releases the advisory lock too.
            try? await connection.close()
            throw Self.explained(error)
        }
    }

    /// postgres-nio's errors describe themselves generically (to keep secrets out); this names what went wrong,
    /// which PostgresFailure words without the password.
    private static func explained(_ error: any Error) -> any Error {
        guard case .unavailable(let unavailable) = PostgresFailure(error) else { return error }
        return unavailable
    }

    private static func migrate(
        schema: String, on connection: PostgresConnection, logger: Logger
    ) async throws -> (found: Int, now: Int) {
        try await connection.query("SELECT pg_advisory_lock(\(lockClass), hashtext(\(schema)))", logger: logger)
        // The name was checked to be a plain identifier (PostgresURL); search_path names it already.
        try await connection.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \"\(schema)\""), logger: logger)
        try await connection.query(PostgresQuery(unsafeSQL: "SET search_path TO \"\(schema)\""), logger: logger)
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS responder_schema_migration (
                version integer PRIMARY KEY,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """, logger: logger)
        var found = 0
        for try await version in try await connection.query(
            "SELECT coalesce(max(version), 0) FROM responder_schema_migration", logger: logger
        ).decode(Int.self) {
            found = version
        }
        guard found <= version else { throw PostgresSchemaTooNew(found: found, known: version, schema: schema) }
        for next in stride(from: found + 1, through: version, by: 1) {
            try await connection.withTransaction(logger: logger) { connection in
                for statement in migrations[next - 1] {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    "INSERT INTO responder_schema_migration (version) VALUES (\(next))", logger: logger)
            }
            logger.info("applied a state store migration", metadata: ["schema": "\(schema)", "version": "\(next)"])
        }
        return (found, version)
    }
}
