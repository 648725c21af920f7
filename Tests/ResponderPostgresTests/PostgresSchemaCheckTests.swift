import Foundation
import Logging
import PipelineHarness
import PostgresNIO
import Responder
import StoreHarness
import Testing

@testable import ResponderPostgres

/// Workers and replays only check the schema; `responder migrate` alone changes it, so a worker's role needs only
/// row rights.
@Suite(.enabled(if: TestPostgres.isAvailable, "needs PostgreSQL: run scripts/test"), .timeLimit(.minutes(10)))
struct PostgresSchemaCheckTests {
    /// The store `run` and `replay` open.
    private func open(_ url: PostgresURL) async throws -> PostgresStateStore {
        try await PostgresStateStore.open(
            url, inboxRetention: .seconds(3600), notificationRetention: .seconds(3600), logger: .quiet)
    }

    @Test func aSchemaWithoutTablesIsRefusedWithOneLineNamingMigrate() async throws {
        let url = try TestPostgres.freshURL()
        let error = try await #require(throws: PostgresSchemaNotMigrated.self) { try await open(url) }
        #expect(error.found == 0)
        #expect(error.description.contains("has no state store tables: run `responder migrate` first"), "\(error)")
        #expect(!error.description.contains("\n"))
        // Nothing was created: not even the schema.
        await #expect(throws: PostgresSchemaNotMigrated.self) { try await PostgresStateStore.checkSchema(url, logger: .quiet) }
    }

    @Test func anOlderSchemaIsRefusedAndANewerOneToo() async throws {
        let url = try TestPostgres.freshURL()
        try await PostgresStateStore.migrate(url, logger: .quiet)
        let current = PostgresStateStore.schemaVersion
        try await TestPostgres.run(["DELETE FROM responder_schema_migration WHERE version = \(current)"], in: url)
        let older = try await #require(throws: PostgresSchemaNotMigrated.self) { try await open(url) }
        #expect(older.found == current - 1)
        #expect(older.description.contains("older than this responder needs (\(current)): run `responder migrate`"))

        try await TestPostgres.run(["INSERT INTO responder_schema_migration (version) VALUES (\(current)), (\(current + 1))"], in: url)
        let newer = try await #require(throws: PostgresSchemaTooNew.self) { try await open(url) }
        #expect(newer.found == current + 1)
    }

    /// The grants of the Deploying article's worker role: it opens the migrated store, commits, reads and prunes,
    /// and cannot change the schema.
    @Test func aRoleWithRowRightsOnlyRunsOnAMigratedSchema() async throws {
        let url = try TestPostgres.freshURL()
        try await PostgresStateStore.migrate(url, logger: .quiet)
        let role = "rows_\(UInt32.random(in: .min ... .max))"
        let password = UUID().uuidString
        let schema = url.schema
        try await TestPostgres.run(
            [
                "CREATE ROLE \(role) LOGIN PASSWORD '\(password)'",
                "GRANT USAGE ON SCHEMA \(schema) TO \(role)",
                "GRANT SELECT ON \(schema).responder_schema_migration TO \(role)",
                "GRANT SELECT, INSERT, UPDATE, DELETE ON \(schema).notification, \(schema).inbox TO \(role)",
                "GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA \(schema) TO \(role)",
            ], in: url)
        var worker = url
        worker.username = role
        worker.password = password

        let store = try await open(worker)
        let pool = Task { await store.run() }
        defer { pool.cancel() }
        let record = NotificationRecord(requestIdentifier: "n-1", categoryIdentifier: "c", actions: [Fixtures.like])
        let entry = InboxEntry(source: "/tests", eventID: "e-1", requestIdentifier: "n-1", outputs: [], processedAt: Date(timeIntervalSince1970: 0))
        #expect(try await store.commit(StateCommit(inboxEntry: entry, notification: record)) == .committed)
        #expect(try await store.load(requestIdentifier: "n-1", source: "/tests", eventID: "e-1") == .processed([]))
        #expect(try await store.notification("n-1")?.version == 1)
        #expect(try await store.pruneInbox(processedBefore: Date(timeIntervalSince1970: 1)) == 1)
        try await store.checkAvailability()

        // It cannot migrate: the DDL needs the owner.
        var fresh = try TestPostgres.freshURL()
        fresh.username = role
        fresh.password = password
        await #expect(throws: StateStoreUnavailable.self) { try await PostgresStateStore.migrate(fresh, logger: .quiet) }
    }
}
