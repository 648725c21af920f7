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
        // so a commit writes one row per table. The inbox, insert-only, is indexed by what it is pruned by.
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
        ],
        // 2: the group commit's function (CommitBatch): one call, one statement and one transaction write a
        // batch of commits, each checked and written in turn as it would be alone. A commit inserts its inbox row
        // first (ON CONFLICT DO NOTHING waits for a concurrent insert of the event and yields to it: the event's
        // stored outputs are its answer), then writes the notification under its version; a version conflict
        // takes the inbox row back. Outcomes: 0 committed, 1 version conflict, 2 processed already (with the
        // stored outputs). PL/pgSQL keeps the plans of its statements for the session: nothing is parsed or
        // planned per batch.
        [
            """
            CREATE FUNCTION commit_events(
                event_ids text[], event_requests text[], processed timestamptz[], event_outputs bytea[],
                changes smallint[], requests text[], categories text[], action_sets bytea[],
                actions_changed boolean[], states bytea[], loaded_versions bigint[]
            ) RETURNS TABLE (outcome smallint, stored bytea) LANGUAGE plpgsql AS $$
            DECLARE
                written integer;
            BEGIN
                FOR i IN 1 .. coalesce(array_length(event_ids, 1), 0) LOOP
                    stored := NULL;
                    INSERT INTO inbox (event_id, request_identifier, processed_at, outputs)
                        VALUES (event_ids[i], event_requests[i], processed[i], event_outputs[i])
                        ON CONFLICT DO NOTHING;
                    GET DIAGNOSTICS written = ROW_COUNT;
                    IF written = 0 THEN
                        SELECT inbox.outputs INTO stored FROM inbox WHERE inbox.event_id = event_ids[i];
                        outcome := CASE WHEN stored IS NULL THEN 1 ELSE 2 END;
                        RETURN NEXT;
                        CONTINUE;
                    END IF;
                    IF changes[i] = 1 THEN
                        INSERT INTO notification
                            (request_identifier, category_identifier, actions, handler_states, version, changed_at)
                            VALUES (requests[i], categories[i], action_sets[i], states[i], 1, processed[i])
                            ON CONFLICT DO NOTHING;
                        GET DIAGNOSTICS written = ROW_COUNT;
                    ELSIF changes[i] = 2 THEN
                        UPDATE notification SET
                            category_identifier = CASE WHEN actions_changed[i] THEN categories[i]
                                ELSE category_identifier END,
                            actions = CASE WHEN actions_changed[i] THEN action_sets[i] ELSE actions END,
                            handler_states = states[i], version = version + 1, changed_at = processed[i]
                            WHERE request_identifier = requests[i] AND version = loaded_versions[i];
                        GET DIAGNOSTICS written = ROW_COUNT;
                    END IF;
                    IF written = 0 THEN
                        DELETE FROM inbox WHERE event_id = event_ids[i];
                        outcome := 1;
                    ELSE
                        outcome := 0;
                    END IF;
                    RETURN NEXT;
                END LOOP;
            END
            $$
            """
        ],
        // 3: the inbox keyed by event source and id (CloudEvents makes an id unique per source only), and
        // notifications indexed by changed_at for pruning.
        // Entries stored before have no known source: they get the empty one, which no event has and which matches
        // an id from any source, so an event processed before the upgrade is still recognised within its retention.
        // The column keeps that default so a worker of the previous build, still running during a rolling deploy
        // through the previous commit_events (left in place; the new one is an overload), writes entries that
        // dedupe as they did. The key starts with the event id: a lookup of an id from one source and the empty
        // one reads one range of the index.
        // Pruning by changed_at scanned the whole table for every batch once most rows are kept, and a large
        // table's scan outlasts the statement timeout: the index makes each batch read only what it deletes. It
        // costs every commit's update its HOT path (changed_at is written each time), the price of pruning that
        // finishes.
        // commit_events now checks for an entry of the empty source first, then inserts its own; a match is
        // answered with the stored outputs and the notification they were for (outcome 2), which the caller
        // compares with its own. This build never writes the empty source, but a worker of the previous build may
        // while a rolling deploy runs: if it commits an event at the moment a new worker commits the same one, both
        // inserts succeed (their keys differ) and the event is handled twice, and the old function's cleanup after
        // a version conflict deletes the event's entries of every source. The window closes when the last old
        // worker stops; an upgrade that cannot afford it stops the old workers before starting new ones.
        [
            "ALTER TABLE inbox ADD COLUMN source text NOT NULL DEFAULT ''",
            "ALTER TABLE inbox DROP CONSTRAINT inbox_pkey",
            "ALTER TABLE inbox ADD PRIMARY KEY (event_id, source)",
            "CREATE INDEX notification_by_changed_at ON notification (changed_at)",
            commitEventsOfVersion3,
        ],
        // 4: ordered mode's fleet (FleetLeases.renewMembership): each member with when its membership ends, by the
        // server's clock (the fleet's machines then agree), and each shard's holder; a holder whose membership
        // ended holds nothing. A few rows, written every heartbeat: no index beyond the keys.
        [
            "CREATE TABLE fleet_member (member text PRIMARY KEY, expires_at timestamptz NOT NULL)",
            "CREATE TABLE shard_lease (shard bigint PRIMARY KEY, holder text NOT NULL)",
        ],
        // 5: the notification's date and whether it was removed (NotificationRecord), for replaced and removed
        // notifications. A stored notification's date is unknown (null) until its next response tells it. Adding
        // columns with a constant default rewrites no row. commit_events gains their arrays as a new overload
        // (postgres-nio binds no NULL array elements, so `dated` says which dates are set); the previous one stays
        // for workers of the previous build during a rolling deploy, leaves both columns as they are, and no longer
        // writes over a removed notification (``removedFence(_:)``).
        [
            "ALTER TABLE notification ADD COLUMN notification_date timestamptz",
            "ALTER TABLE notification ADD COLUMN removed boolean NOT NULL DEFAULT false",
            removedFence(commitEventsOfVersion3),
            """
            CREATE FUNCTION commit_events(
                event_sources text[], event_ids text[], event_requests text[], processed timestamptz[],
                event_outputs bytea[], changes smallint[], requests text[], categories text[], action_sets bytea[],
                actions_changed boolean[], states bytea[], loaded_versions bigint[], dated boolean[],
                notification_dates timestamptz[], removals boolean[]
            ) RETURNS TABLE (outcome smallint, stored bytea, stored_request text) LANGUAGE plpgsql AS $$
            DECLARE
                written integer;
            BEGIN
                FOR i IN 1 .. coalesce(array_length(event_ids, 1), 0) LOOP
                    stored := NULL;
                    stored_request := NULL;
                    SELECT inbox.outputs, inbox.request_identifier INTO stored, stored_request FROM inbox
                        WHERE inbox.event_id = event_ids[i] AND inbox.source = '';
                    IF FOUND THEN
                        outcome := 2;
                        RETURN NEXT;
                        CONTINUE;
                    END IF;
                    INSERT INTO inbox (event_id, source, request_identifier, processed_at, outputs)
                        VALUES (event_ids[i], event_sources[i], event_requests[i], processed[i], event_outputs[i])
                        ON CONFLICT DO NOTHING;
                    GET DIAGNOSTICS written = ROW_COUNT;
                    IF written = 0 THEN
                        SELECT inbox.outputs, inbox.request_identifier INTO stored, stored_request FROM inbox
                            WHERE inbox.event_id = event_ids[i] AND inbox.source = event_sources[i];
                        outcome := CASE WHEN FOUND THEN 2 ELSE 1 END;
                        RETURN NEXT;
                        CONTINUE;
                    END IF;
                    IF changes[i] = 1 THEN
                        INSERT INTO notification
                            (request_identifier, category_identifier, actions, handler_states, version, changed_at,
                                notification_date, removed)
                            VALUES (requests[i], categories[i], action_sets[i], states[i], 1, processed[i],
                                CASE WHEN dated[i] THEN notification_dates[i] END, removals[i])
                            ON CONFLICT DO NOTHING;
                        GET DIAGNOSTICS written = ROW_COUNT;
                    ELSIF changes[i] = 2 THEN
                        UPDATE notification SET
                            category_identifier = CASE WHEN actions_changed[i] THEN categories[i]
                                ELSE category_identifier END,
                            actions = CASE WHEN actions_changed[i] THEN action_sets[i] ELSE actions END,
                            handler_states = states[i], version = version + 1, changed_at = processed[i],
                            notification_date = CASE WHEN dated[i] THEN notification_dates[i] END,
                            removed = removals[i]
                            WHERE request_identifier = requests[i] AND version = loaded_versions[i];
                        GET DIAGNOSTICS written = ROW_COUNT;
                    END IF;
                    IF written = 0 THEN
                        DELETE FROM inbox WHERE inbox.event_id = event_ids[i] AND inbox.source = event_sources[i];
                        outcome := 1;
                    ELSE
                        outcome := 0;
                    END IF;
                    RETURN NEXT;
                END LOOP;
            END
            $$
            """,
        ],
    ]

    /// Version 3's `commit_events`, which workers of builds before version 5 call. Version 5 replaces it with the same
    /// function fenced against removed notifications (``removedFence(_:)``).
    private static let commitEventsOfVersion3 =
            """
            CREATE FUNCTION commit_events(
                event_sources text[], event_ids text[], event_requests text[], processed timestamptz[],
                event_outputs bytea[], changes smallint[], requests text[], categories text[], action_sets bytea[],
                actions_changed boolean[], states bytea[], loaded_versions bigint[]
            ) RETURNS TABLE (outcome smallint, stored bytea, stored_request text) LANGUAGE plpgsql AS $$
            DECLARE
                written integer;
            BEGIN
                FOR i IN 1 .. coalesce(array_length(event_ids, 1), 0) LOOP
                    stored := NULL;
                    stored_request := NULL;
                    SELECT inbox.outputs, inbox.request_identifier INTO stored, stored_request FROM inbox
                        WHERE inbox.event_id = event_ids[i] AND inbox.source = '';
                    IF FOUND THEN
                        outcome := 2;
                        RETURN NEXT;
                        CONTINUE;
                    END IF;
                    INSERT INTO inbox (event_id, source, request_identifier, processed_at, outputs)
                        VALUES (event_ids[i], event_sources[i], event_requests[i], processed[i], event_outputs[i])
                        ON CONFLICT DO NOTHING;
                    GET DIAGNOSTICS written = ROW_COUNT;
                    IF written = 0 THEN
                        SELECT inbox.outputs, inbox.request_identifier INTO stored, stored_request FROM inbox
                            WHERE inbox.event_id = event_ids[i] AND inbox.source = event_sources[i];
                        outcome := CASE WHEN FOUND THEN 2 ELSE 1 END;
                        RETURN NEXT;
                        CONTINUE;
                    END IF;
                    IF changes[i] = 1 THEN
                        INSERT INTO notification
                            (request_identifier, category_identifier, actions, handler_states, version, changed_at)
                            VALUES (requests[i], categories[i], action_sets[i], states[i], 1, processed[i])
                            ON CONFLICT DO NOTHING;
                        GET DIAGNOSTICS written = ROW_COUNT;
                    ELSIF changes[i] = 2 THEN
                        UPDATE notification SET
                            category_identifier = CASE WHEN actions_changed[i] THEN categories[i]
                                ELSE category_identifier END,
                            actions = CASE WHEN actions_changed[i] THEN action_sets[i] ELSE actions END,
                            handler_states = states[i], version = version + 1, changed_at = processed[i]
                            WHERE request_identifier = requests[i] AND version = loaded_versions[i];
                        GET DIAGNOSTICS written = ROW_COUNT;
                    END IF;
                    IF written = 0 THEN
                        DELETE FROM inbox WHERE inbox.event_id = event_ids[i] AND inbox.source = event_sources[i];
                        outcome := 1;
                    ELSE
                        outcome := 0;
                    END IF;
                    RETURN NEXT;
                END LOOP;
            END
            $$
            """

    /// `function` (``commitEventsOfVersion3``) made to leave a removed notification alone: a worker of a build
    /// before version 5 loads a tombstone as a live notification (it knows no `removed` column), and its update would
    /// bring the notification back under a version above the removal's, which a push sender applies after it. Fenced,
    /// its commit is a version conflict instead (the event is retried, and a worker of this build handles it as
    /// stale), for as long as a rolling deploy runs.
    private static func removedFence(_ function: String) -> String {
        function.replacingOccurrences(of: "CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION")
            .replacingOccurrences(
                of: "WHERE request_identifier = requests[i] AND version = loaded_versions[i];",
                with: "WHERE request_identifier = requests[i] AND version = loaded_versions[i] AND NOT removed;")
    }

    /// The newest version this build knows.
    static var version: Int { migrations.count }

    /// The advisory lock's first key; the second is the hash of the schema's name.
    static let lockClass: Int32 = 0x5245_5300

    /// Brings the schema of `url` up to ``version``; returns the version found and the version left.
    static func migrate(_ url: PostgresURL, logger: Logger) async throws -> (found: Int, now: Int) {
        try await onConnection(url, logger: logger) { connection in
            try await migrate(schema: url.schema, on: connection, logger: logger)
        }.result
    }

    /// The version of `url`'s schema, which must be ``version``: throws ``PostgresSchemaNotMigrated`` when it is
    /// missing or older, ``PostgresSchemaTooNew`` when newer. Reads only, so a role with row rights can check.
    /// Returns whether the server took the connection into TLS.
    static func check(_ url: PostgresURL, logger: Logger) async throws -> Bool {
        let (found, usesTLS) = try await onConnection(url, logger: logger) { connection in
            try await foundVersion(schema: url.schema, on: connection, logger: logger)
        }
        guard found <= version else { throw PostgresSchemaTooNew(found: found, known: version, schema: url.schema) }
        guard found == version else { throw PostgresSchemaNotMigrated(found: found, needed: version, schema: url.schema) }
        return usesTLS
    }

    /// `body`'s result on a connection of its own to `url`, closed afterwards (which releases its advisory lock
    /// too), with postgres-nio's errors explained; and whether the connection went into TLS.
    private static func onConnection<Result>(
        _ url: PostgresURL, logger: Logger, _ body: (PostgresConnection) async throws -> Result
    ) async throws -> (result: Result, usesTLS: Bool) {
        let connection: PostgresConnection
        let usesTLS: Bool
        do {
            (connection, usesTLS) = try await url.connect(
                id: 1, startupParameters: PostgresURL.migrationStartupParameters, logger: logger)
        } catch {
            throw Self.explained(error)
        }
        do {
            let result = try await body(connection)
            try await connection.close()
            return (result, usesTLS)
        } catch {
            try? await connection.close()
            throw Self.explained(error)
        }
    }

    /// The newest migration recorded in `schema`, 0 when it has no migration table.
    private static func foundVersion(schema: String, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        // The name was checked to be a plain identifier (PostgresURL).
        let table = "\"\(schema)\".responder_schema_migration"
        var exists = false
        for try await name in try await connection.query("SELECT to_regclass(\(table))::text", logger: logger)
            .decode(String?.self)
        {
            exists = name != nil
        }
        guard exists else { return 0 }
        var found = 0
        for try await version in try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT coalesce(max(version), 0) FROM \(table)"), logger: logger
        ).decode(Int.self) {
            found = version
        }
        return found
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
        let found = try await foundVersion(schema: schema, on: connection, logger: logger)
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
