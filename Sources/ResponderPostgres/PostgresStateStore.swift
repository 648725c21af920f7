import Foundation
import Logging
import NotificationEvents
import PostgresNIO
import Responder
import ServiceLifecycle

/// The ``StateStore`` on a PostgreSQL server, which a fleet of workers on several machines shares.
///
/// Same semantics as ResponderSQLite's `SQLiteStateStore`: a commit writes the notification, the inbox entry and the outputs
/// atomically, guarded by optimistic concurrency on the notification's version, and a redelivered event gets its
/// stored outputs byte for byte.
///
/// A batch of loads is read by one query (``LoadEvents``, one round trip for up to 64 events).
///
/// A batch of commits is written by one call of the schema's `commit_events` function (a prepared statement: one
/// round trip, at most 64 commits) in one transaction. Within it each commit is checked and written in turn exactly
/// as it would be alone: its inbox row first, then the notification if its version is still the loaded one (a
/// conflict takes the inbox row back), so a duplicate or a conflict of one event leaves the others of the batch
/// alone. A batch that holds several commits of one notification is written in waves, one round trip each: the
/// first commit of every notification, then the second of those whose first committed, and so on (the rule of
/// ``StateStore/commit(_:)``). Each commit's result is given once its transaction committed. Under READ COMMITTED
/// an inbox insert that meets another worker's uncommitted insert of
/// the same event (a redelivery racing the original) waits for it and then yields: the inbox's primary key makes
/// that the single point where one of them wins, and the loser answers with the winner's outputs,
/// `alreadyProcessed`, one effect. That also makes a batch whose outcome was lost with its connection safe to
/// write again. A batch is written in the order of its notifications' request identifiers and then event ids, so
/// two workers' batches that share notifications or events take their locks in one order and do not deadlock.
///
/// Serialization failures and deadlocks are retried (a few times, with jitter); connection and server trouble
/// become ``StateStoreUnavailable`` for every commit of the batch, and so does an operation that gets no answer
/// within `timeout` (the sessions' statement_timeout too). PostgreSQL's durability is the server's
/// (`synchronous_commit`): a batch's callers learn their results after its commit record is flushed.
///
/// The pool works only while ``run()`` runs: add the store to the service group, before the services that use
/// it, so it stops after them.
public final class PostgresStateStore: StateStore, Service {
    public let inboxRetention: Duration
    public let notificationRetention: Duration
    /// Rows one pruning statement deletes at most, so a pass never holds many locks or a long transaction.
    public let pruningBatch: Int
    let client: PostgresConnectionPool
    let timeout: Duration
    let logger: Logger

    /// A store on the server of `url`, whose schema must be migrated (``migrate(_:logger:)``, which
    /// ``checkSchema(_:logger:)`` checks). Nothing connects
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
        let client = PostgresConnectionPool(
            url: url, startupParameters: url.startupParameters(statementTimeout: timeout), logger: logger)
        self.client = client
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

    /// Checks that `url`'s schema is at ``schemaVersion``, on a connection of its own that fails at once on a wrong
    /// host, port or password, and changes nothing: a worker's role needs only row rights. Throws
    /// ``PostgresSchemaNotMigrated`` when the schema is missing or older (`responder migrate` must run first),
    /// ``PostgresSchemaTooNew`` when it is newer.
    ///
    /// Returns the URL the store's connection pool should use: with the default `sslmode` (`prefer-verified`), once
    /// this connection went into TLS, `verify-full`, so the pool's later connections cannot be talked down to
    /// cleartext, where a man in the middle could read and change the state.
    @discardableResult
    public static func checkSchema(_ url: PostgresURL, logger: Logger) async throws -> PostgresURL {
        try await PostgresSchema.check(url, logger: logger) ? url.requiringTLS() : url
    }

    /// The schema version this build writes.
    public static var schemaVersion: Int { PostgresSchema.version }

    /// Runs the connection pool until the task is cancelled or a graceful shutdown reaches it.
    public func run() async {
        await client.run()
    }

    /// Reads the loads 64 at a time, one query each.
    public func load(_ loads: [StateLoad]) async throws -> [Result<StateSnapshot, any Error>] {
        var snapshots: [Result<StateSnapshot, any Error>] = []
        snapshots.reserveCapacity(loads.count)
        for start in stride(from: 0, to: loads.count, by: Self.maximumBatch) {
            let group = Array(loads[start..<min(start + Self.maximumBatch, loads.count)])
            snapshots += await Self.load(group, on: client, within: timeout, logger: logger)
        }
        return snapshots
    }

    /// Writes the commits in waves, at most 64 commits a transaction (see the type's discussion).
    public func commit(_ commits: [StateCommit]) async throws -> [Result<CommitResult, any Error>] {
        var results = [Result<CommitResult, any Error>](repeating: .success(.versionConflict), count: commits.count)
        var chains = CommitChains()
        for wave in Self.waves(of: commits) {
            let written = wave.filter { chains.mayWrite(commits[$0]) }
            for start in stride(from: 0, to: written.count, by: Self.maximumBatch) {
                let group = written[start..<min(start + Self.maximumBatch, written.count)]
                let answered = await Self.write(group.map { commits[$0] }, on: client, within: timeout, logger: logger)
                for (index, result) in zip(group, answered) {
                    results[index] = result
                    chains.record(result, of: commits[index])
                }
            }
        }
        return results
    }

    public func inboxEntries(of requestIdentifier: String, limit: Int) async throws -> [InboxEntry] {
        try await operation { client in
            try await client.withConnection { connection in
                let rows = try await connection.query(
                    """
                    SELECT source, event_id, processed_at, outputs FROM inbox
                    WHERE request_identifier = \(requestIdentifier) ORDER BY processed_at DESC LIMIT \(limit)
                    """, logger: self.logger)
                var entries: [InboxEntry] = []
                for try await (source, eventID, processedAt, outputs) in rows.decode((String, String, Date, ByteBuffer).self) {
                    entries.append(
                        InboxEntry(
                            source: source, eventID: eventID, requestIdentifier: requestIdentifier,
                            outputs: try StoredBytes.outputs(outputs), processedAt: processedAt))
                }
                return entries
            }
        }
    }

    public func notification(_ requestIdentifier: String) async throws -> NotificationRecord? {
        try await operation { client in
            try await client.withConnection { connection in
                let rows = try await connection.query(
                    """
                    SELECT category_identifier, actions, handler_states, version, notification_date, removed
                    FROM notification WHERE request_identifier = \(requestIdentifier)
                    """, logger: self.logger)
                for try await (category, actions, states, version, date, removed) in rows.decode(
                    (String, ByteBuffer, ByteBuffer, Int64, Date?, Bool).self)
                {
                    return try Self.record(
                        requestIdentifier, category: category, actions: actions, states: states, version: version,
                        notificationDate: date, isRemoved: removed)
                }
                return nil
            }
        }
    }

    /// One round trip through the pool within the store's timeout: the load's own statement, for no event, so
    /// the server is reachable, takes this worker's credentials, and has the tables this build reads, with the
    /// grants to read them (a table renamed or a grant revoked keeps the store unavailable). It cannot prove the
    /// server lets this worker write (a full disk or a revoked write grant fails the next commit, which pauses
    /// the worker again, with a longer backoff).
    public func checkAvailability() async throws {
        try await operation { client in
            _ = try await client.execute(LoadEvents(keys: []), logger: self.logger)
        }
    }

    public func pruneInbox(processedBefore cutoff: Date) async throws -> Int {
        try await prune(
            """
            DELETE FROM inbox WHERE ctid IN (SELECT ctid FROM inbox WHERE processed_at < $1 LIMIT $2)
                AND processed_at < $1 RETURNING 1
            """, before: cutoff)
    }

    /// Each batch takes the oldest notifications through the index on changed_at (migration 3), so it reads only
    /// the rows it deletes however many are kept.
    public func pruneNotifications(changedBefore cutoff: Date) async throws -> Int {
        try await prune(Self.notificationPruning, before: cutoff)
    }

    /// One batch of ``pruneNotifications(changedBefore:)``: $1 the cutoff, $2 the batch size.
    static let notificationPruning = """
        DELETE FROM notification WHERE ctid IN
            (SELECT ctid FROM notification WHERE changed_at < $1 ORDER BY changed_at LIMIT $2)
            AND changed_at < $1 RETURNING 1
        """

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
