import Foundation
import Logging
import NotificationEvents
import PostgresNIO
import Responder
import ServiceLifecycle

/// The ``StateStore`` on a PostgreSQL server, which a fleet of workers on several machines shares.
///
/// Same semantics as ``SQLiteStateStore``: a commit writes the notification, the inbox entry and the outputs
/// atomically, guarded by optimistic concurrency on the notification's version, and a redelivered event gets its
/// stored outputs byte for byte.
///
/// A commit is one SQL statement (so one round trip and one transaction): a data-modifying CTE writes the
/// notification if its version is still the loaded one and the event is not in the inbox, and the inbox row
/// only if the notification was written. Under READ COMMITTED a commit that waited on another's row lock
/// re-reads the row, so of two commits of the same event (a redelivery racing the original, on two workers) the
/// second finds the version moved and writes nothing; and the inbox's primary key on the event id makes the
/// commit the single point that can win even when neither touches the notification (the loser's statement fails
/// on the key and is rolled back whole). The loser then reads the winner's outputs: `alreadyProcessed`, one
/// effect. That also makes a commit whose outcome was lost with its connection safe to retry.
///
/// Concurrent commits run on the pool's connections at once (`pool_size`), each one round trip; PostgreSQL's
/// WAL flush serves the commits that wait on it together. Serialization failures and deadlocks are retried (a
/// few times, with jitter); connection and server trouble become ``StateStoreUnavailable``, and so does an
/// operation that gets no answer within `timeout` (the sessions' statement_timeout too).
///
/// The pool works only while ``run()`` runs: add the store to the service group, before the services that use
/// it, so it stops after them.
public final class PostgresStateStore: StateStore, Service {
    public let inboxRetention: Duration
    public let notificationRetention: Duration
    /// Rows one pruning statement deletes at most, so a pass never holds many locks or a long transaction.
    public let pruningBatch: Int
    let client: PostgresClient
    let timeout: Duration
    let logger: Logger

    /// A store on the server of `url`, whose schema must be migrated (``migrate(_:logger:)``). Nothing connects
    /// before ``run()``.
    ///
    /// - Parameters:
    ///   - timeout: how long one operation may take, waiting for a connection included (default 10 s).
    ///   - pruningBatch: the most rows one pruning statement deletes (default 1,000).
    public init(
        url: PostgresURL, inboxRetention: Duration = .seconds(7 * 24 * 3600),
        notificationRetention: Duration = .seconds(30 * 24 * 3600), timeout: Duration = .seconds(10),
        pruningBatch: Int = 1000, logger: Logger
    ) {
        self.inboxRetention = inboxRetention
        self.notificationRetention = notificationRetention
        self.timeout = timeout
        self.pruningBatch = pruningBatch
        self.logger = logger
        client = PostgresClient(
            configuration: url.clientConfiguration(statementTimeout: timeout), backgroundLogger: logger)
    }

    /// Applies the migrations `url`'s schema lacks, under an advisory lock (workers starting together apply them
    /// once), on a connection of its own that fails at once on a wrong host, port or password. Throws
    /// ``PostgresSchemaTooNew`` when the schema is newer than this build.
    ///
    /// - Returns: the schema version found and the version it is at now.
    @discardableResult
    public static func migrate(_ url: PostgresURL, logger: Logger) async throws -> (found: Int, now: Int) {
        try await PostgresSchema.migrate(url, logger: logger)
    }

    /// The schema version this build writes.
    public static var schemaVersion: Int { PostgresSchema.version }

    /// Runs the connection pool until the task is cancelled or a graceful shutdown reaches it.
    public func run() async {
        await client.run()
    }

    public func load(requestIdentifier: String, eventID: String) async throws -> StateSnapshot {
        let query: PostgresQuery = """
            SELECT i.outputs, n.category_identifier, n.actions, n.handler_states, n.version
            FROM (SELECT \(requestIdentifier)::text AS id) AS wanted
            LEFT JOIN notification n ON n.request_identifier = wanted.id
            LEFT JOIN inbox i ON i.event_id = \(eventID)
            """
        return try await operation { client in
            let rows = try await client.query(query, logger: self.logger)
            for try await (outputs, category, actions, states, version) in rows.decode(
                (ByteBuffer?, String?, ByteBuffer?, ByteBuffer?, Int64?).self)
            {
                if let outputs { return .processed(try StoredBytes.outputs(outputs)) }
                return .unprocessed(
                    try Self.record(requestIdentifier, category: category, actions: actions, states: states, version: version))
            }
            return .unprocessed(nil)
        }
    }

    public func commit(_ commit: StateCommit) async throws -> CommitResult {
        let query = Self.commitQuery(commit)
        let eventID = commit.inboxEntry.eventID
        return try await operation { client in
            do {
                let rows = try await client.query(query, logger: self.logger)
                var written = false
                for try await _ in rows { written = true }
                if written { return .committed }
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
                // Another commit of this event won the inbox key: fall through to its outputs.
            }
            for try await outputs in try await client.query(
                "SELECT outputs FROM inbox WHERE event_id = \(eventID)", logger: self.logger
            ).decode(ByteBuffer.self) {
                return .alreadyProcessed(try StoredBytes.outputs(outputs))
            }
            return .versionConflict
        }
    }

    public func notification(_ requestIdentifier: String) async throws -> NotificationRecord? {
        try await operation { client in
            let rows = try await client.query(
                """
                SELECT category_identifier, actions, handler_states, version FROM notification
                WHERE request_identifier = \(requestIdentifier)
                """, logger: self.logger)
            for try await (category, actions, states, version) in rows.decode((String, ByteBuffer, ByteBuffer, Int64).self) {
                return try Self.record(requestIdentifier, category: category, actions: actions, states: states, version: version)
            }
            return nil
        }
    }

    /// One round trip through the pool within the store's timeout: the server is reachable and takes this
    /// worker's credentials. It cannot prove the server has room to write (a full disk fails the next commit,
    /// which pauses the worker again, with a longer backoff).
    public func checkAvailability() async throws {
        try await operation { client in
            for try await _ in try await client.query("SELECT 1", logger: self.logger) {}
        }
    }

    public func pruneInbox(processedBefore cutoff: Date) async throws -> Int {
        try await prune(
            """
            DELETE FROM inbox WHERE ctid IN (SELECT ctid FROM inbox WHERE processed_at < $1 LIMIT $2)
                AND processed_at < $1 RETURNING 1
            """, before: cutoff)
    }

    /// The pass scans the notification table (see the schema for why it has no index on changed_at).
    public func pruneNotifications(changedBefore cutoff: Date) async throws -> Int {
        try await prune(
            """
            DELETE FROM notification WHERE ctid IN (SELECT ctid FROM notification WHERE changed_at < $1 LIMIT $2)
                AND changed_at < $1 RETURNING 1
            """, before: cutoff)
    }

    /// Deletes in batches of ``pruningBatch`` rows, each its own short statement, while holding a session-level
    /// advisory lock, so only one worker of the fleet prunes at a time; a worker that finds it taken prunes
    /// nothing (returns 0). A commit racing a delete either updated the row first (the delete then re-checks the
    /// cutoff and keeps it) or finds it gone (a version conflict; it starts afresh).
    private func prune(_ sql: String, before cutoff: Date) async throws -> Int {
        try await operation(bounded: false) { client in
            try await client.withConnection { connection in
                let key = "\(PostgresSchema.lockClass + 1)"
                var taken = false
                for try await locked in try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT pg_try_advisory_lock(\(key), hashtext(current_schema()))"),
                    logger: self.logger
                ).decode(Bool.self) {
                    taken = locked
                }
                guard taken else { return 0 }
                var total = 0
                do {
                    while true {
                        var bindings = PostgresBindings()
                        bindings.append(cutoff)
                        bindings.append(self.pruningBatch)
                        let rows = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: self.logger)
                        var deleted = 0
                        for try await _ in rows { deleted += 1 }
                        total += deleted
                        if deleted < self.pruningBatch { break }
                    }
                } catch {
                    _ = try? await connection.query(
                        PostgresQuery(unsafeSQL: "SELECT pg_advisory_unlock(\(key), hashtext(current_schema()))"),
                        logger: self.logger)
                    throw error
                }
                _ = try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT pg_advisory_unlock(\(key), hashtext(current_schema()))"),
                    logger: self.logger)
                return total
            }
        }
    }
}
