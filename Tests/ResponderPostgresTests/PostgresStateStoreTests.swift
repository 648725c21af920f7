import Foundation
import Logging
import PipelineHarness
import PostgresNIO
import Responder
import StoreHarness
import Testing

@testable import ResponderPostgres

/// What only the PostgreSQL store does: migrations shared by a fleet, batched pruning one worker at a time, and
/// clear, bounded failures on a wrong URL. (Its StateStore behaviour is in StateStoreConformanceTests.)
@Suite(.enabled(if: TestPostgres.isAvailable, "needs PostgreSQL: run scripts/test"), .timeLimit(.minutes(10)))
struct PostgresStateStoreTests {
    /// Runs `sql` on a connection of its own in `url`'s schema, returning the first column of each row as text.
    private func query(_ sql: String, in url: PostgresURL) async throws -> [String] {
        let connection = try await PostgresConnection.connect(
            configuration: try url.connectionConfiguration(), id: 9, logger: .quiet)
        var values: [String] = []
        do {
            try await connection.query(PostgresQuery(unsafeSQL: "SET search_path TO \(url.schema)"), logger: .quiet)
            for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: .quiet)
                .decode(String.self)
            {
                values.append(value)
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
        return values
    }

    @Test func tenWorkersStartingTogetherApplyTheMigrationsOnce() async throws {
        let url = try TestPostgres.freshURL()
        let results = try await withThrowingTaskGroup(of: (found: Int, now: Int).self) { group in
            for _ in 0..<10 { group.addTask { try await PostgresStateStore.migrate(url, logger: .quiet) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter { $0.found == 0 }.count == 1)
        #expect(results.allSatisfy { $0.now == PostgresStateStore.schemaVersion })
        #expect(
            try await query("SELECT string_agg(version::text, ',' ORDER BY version) FROM responder_schema_migration", in: url)
                == ["1,2,3,4,5"])
    }

    @Test func aSchemaNewerThanThisBuildIsRefused() async throws {
        let url = try TestPostgres.freshURL()
        try await PostgresStateStore.migrate(url, logger: .quiet)
        _ = try await query("INSERT INTO responder_schema_migration (version) VALUES (99) RETURNING ''", in: url)
        let error = try await #require(throws: PostgresSchemaTooNew.self) {
            try await PostgresStateStore.migrate(url, logger: .quiet)
        }
        #expect(error.found == 99)
        #expect("\(error)".contains("version 99, newer than this responder knows"))
    }

    @Test func aWrongPasswordFailsAtStartWithoutShowingIt() async throws {
        var url = try TestPostgres.freshURL()
        url.password = "not-the-password-42"
        let error = await #expect(throws: StateStoreUnavailable.self) {
            try await PostgresStateStore.migrate(url, logger: .quiet)
        }
        let text = "\(String(reflecting: error))"
        #expect(!text.contains("not-the-password-42"))
        #expect(text.contains("28P01 password authentication failed"), "\(text)")
    }

    @Test(arguments: ["127.0.0.1:1", "no-such-host.invalid:5432"])
    func anUnreachableServerFailsAtStart(address: String) async throws {
        let url = try PostgresURL("postgres://responder:pw@\(address)/responder?connect_timeout=5")
        let error = await #expect(throws: StateStoreUnavailable.self) {
            try await PostgresStateStore.migrate(url, logger: .quiet)
        }
        #expect(error?.reason.contains("connection lost or refused") == true, "\(String(describing: error))")
    }

    /// A server the pool cannot reach: the store does not wait for it past its timeout, the worker pauses on
    /// StateStoreUnavailable instead of hanging.
    @Test func aStoreThatCannotConnectIsUnavailableNotHanging() async throws {
        let url = try PostgresURL("postgres://responder:pw@127.0.0.1:1/responder?connect_timeout=1")
        let store = PostgresStateStore(url: url, timeout: .seconds(2), logger: .quiet)
        let running = Task { await store.run() }
        defer { running.cancel() }
        let error = await #expect(throws: StateStoreUnavailable.self) {
            try await store.load(requestIdentifier: "n", source: "/tests", eventID: "e")
        }
        #expect(error?.reason.contains("PostgreSQL") == true)
        let commit = StateCommit(
            inboxEntry: InboxEntry(source: "/tests", eventID: "e", requestIdentifier: "n", outputs: [], processedAt: .now),
            notification: nil)
        await #expect(throws: StateStoreUnavailable.self) { try await store.commit(commit) }
    }

    @Test func pruningDeletesInBatchesAndOnlyOneWorkerPrunesAtATime() async throws {
        let directory = try TemporaryDirectory()
        let store = try await TestPostgres.store(in: directory, pruningBatch: 10)
        let old = Date().addingTimeInterval(-30 * 86_400)
        for n in 0..<95 {
            let entry = InboxEntry(source: "/tests", eventID: "e\(n)", requestIdentifier: "n", outputs: [], processedAt: old)
            #expect(try await store.commit(StateCommit(inboxEntry: entry, notification: nil)) == .committed)
        }
        let url = try TestPostgres.schemaURL(directory.schema ?? "")
        // Another worker is pruning: it holds the lock, so this one prunes nothing.
        let other = try await PostgresConnection.connect(
            configuration: try url.connectionConfiguration(), id: 8, logger: .quiet)
        try await other.query(PostgresQuery(unsafeSQL: "SET search_path TO \(url.schema)"), logger: .quiet)
        try await other.query(
            PostgresQuery(unsafeSQL: "SELECT pg_advisory_lock(\(PostgresSchema.lockClass + 1), hashtext(current_schema()))"),
            logger: .quiet)
        #expect(try await store.pruneInbox(processedBefore: .now) == 0)
        try await other.query(
            PostgresQuery(unsafeSQL: "SELECT pg_advisory_unlock(\(PostgresSchema.lockClass + 1), hashtext(current_schema()))"),
            logger: .quiet)
        try await other.close()
        #expect(try await store.pruneInbox(processedBefore: .now) == 95)
        #expect(try await query("SELECT count(*)::text FROM inbox", in: url) == ["0"])
    }

    /// Notification pruning reads the oldest rows through the index on changed_at, so a batch costs the rows it
    /// deletes, not a scan of every kept one (which, on a large table, outlasts the statement timeout): the plan of
    /// the store's own batch statement, on a table the planner has statistics for, and every batch making progress.
    @Test func notificationPruningReadsTheIndexAndGoesOnBatchByBatch() async throws {
        let directory = try TemporaryDirectory()
        let store = try await TestPostgres.store(in: directory, pruningBatch: 100)
        let url = try TestPostgres.schemaURL(directory.schema ?? "")
        let connection = try await PostgresConnection.connect(
            configuration: try url.connectionConfiguration(), id: 6, logger: .quiet)
        var plan: [String] = []
        do {
            try await connection.query(PostgresQuery(unsafeSQL: "SET search_path TO \(url.schema)"), logger: .quiet)
            // 20,000 notifications, one a minute; the cutoff, half a minute off the minutes, leaves 18,951.
            try await connection.query(
                """
                INSERT INTO notification (request_identifier, category_identifier, actions, handler_states, version,
                    changed_at)
                SELECT 'n' || i, 'c', '\\x5b5d', '\\x', 1, now() - (20000 - i) * interval '1 minute'
                FROM generate_series(1, 20000) AS i
                """, logger: .quiet)
            try await connection.query("ANALYZE notification", logger: .quiet)
            try await connection.query(
                PostgresQuery(
                    unsafeSQL: "PREPARE batch (timestamptz, integer) AS \(PostgresStateStore.notificationPruning)"),
                logger: .quiet)
            for try await line in try await connection.query(
                "EXPLAIN EXECUTE batch (now() - interval '18950 minutes', 100)", logger: .quiet
            ).decode(String.self) {
                plan.append(line)
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
        #expect(plan.contains { $0.contains("Index Scan using notification_by_changed_at") }, "\(plan.joined(separator: "\n"))")
        #expect(!plan.contains { $0.contains("Seq Scan") }, "\(plan.joined(separator: "\n"))")
        let cutoff = Date().addingTimeInterval(-18_950.5 * 60)
        #expect(try await store.pruneNotifications(changedBefore: cutoff) == 1_049)
        #expect(try await query("SELECT count(*)::text FROM notification", in: url) == ["18951"])
    }

    @Test func theOtherWorkerOfARaceGetsTheWinnersOutputs() async throws {
        let directory = try TemporaryDirectory()
        let one = try await TestPostgres.store(in: directory)
        let other = try await TestPostgres.store(sharingWith: directory)
        let output = OutboundMessage(exchange: "x", routingKey: "r", body: [0, 1, 2], properties: MessageProperties())
        // Without a notification change, only the inbox key decides: still one winner.
        for round in 0..<20 {
            let mine = InboxEntry(source: "/tests", eventID: "e\(round)", requestIdentifier: "n", outputs: [output], processedAt: .now)
            var theirs = mine
            theirs.outputs = []
            async let first = one.commit(StateCommit(inboxEntry: mine, notification: nil))
            async let second = other.commit(StateCommit(inboxEntry: theirs, notification: nil))
            let results = try await [first, second]
            #expect(
                results == [.committed, .alreadyProcessed([output])] || results == [.alreadyProcessed([]), .committed],
                "\(results)")
        }
    }

    /// A commit the server refuses (an event id with a NUL, which no `text` can hold) fails alone: the batch it
    /// shared is rolled back, and the others, written again each on its own, commit.
    @Test func aCommitTheServerRefusesFailsAloneAndTheRestOfItsBatchCommits() async throws {
        let directory = try TemporaryDirectory()
        let store = try await TestPostgres.store(in: directory)
        let ids = (0..<40).map { $0 == 20 ? "poison\u{0}" : "e\($0)" }
        let results = await store.commitTogether(
            ids.map { id in
                let record = NotificationRecord(requestIdentifier: "n-\(id)", categoryIdentifier: "c", actions: [Fixtures.like])
                let entry = InboxEntry(source: "/tests", eventID: id, requestIdentifier: record.requestIdentifier, outputs: [], processedAt: .now)
                return StateCommit(inboxEntry: entry, notification: record)
            })
        for (id, result) in zip(ids, results) where id != ids[20] {
            #expect((try? result.get()) == .committed, "\(id)")
            #expect(try await store.notification("n-\(id)")?.version == 1)
        }
        #expect(throws: StateStoreRefusedValue.self) { try results[20].get() }
    }

    /// sslmode as libpq means it, against scripts/postgres's certificate (for localhost, by a throwaway CA).
    @Test func tlsIsUsedAndVerifiedAsSslmodeSays() async throws {
        let folder = try #require(ProcessInfo.processInfo.environment["POSTGRES_TLS_DIR"], "run scripts/test")
        var url = try TestPostgres.freshURL()
        url.host = "localhost"
        url.tlsMode = .verifyFull
        url.rootCertificatePath = folder + "/ca.pem"
        try await PostgresStateStore.migrate(url, logger: .quiet)
        #expect(try await query("SELECT ssl::text FROM pg_stat_ssl WHERE pid = pg_backend_pid()", in: url) == ["true"])

        var unverified = url
        unverified.tlsMode = .require
        unverified.rootCertificatePath = nil
        #expect(try await query("SELECT ssl::text FROM pg_stat_ssl WHERE pid = pg_backend_pid()", in: unverified) == ["true"])

        var wrongName = url
        wrongName.host = "127.0.0.1"
        await #expect(throws: StateStoreUnavailable.self) { try await PostgresStateStore.migrate(wrongName, logger: .quiet) }
        var untrusted = url
        untrusted.rootCertificatePath = nil
        await #expect(throws: StateStoreUnavailable.self) { try await PostgresStateStore.migrate(untrusted, logger: .quiet) }
    }
}
