import Foundation
import GRDB
import NotificationEvents
import PipelineHarness
import PostgresNIO
import Responder
import ResponderSQLite
import StoreHarness
import Testing

@testable import ResponderPostgres

/// Stores of the schema before the inbox knew sources keep their inbox through the upgrade: an event processed
/// before it is still a duplicate when it comes again, from whichever source, and still refused for another
/// notification.
@Suite struct InboxMigrationTests {
    private let outputs = [
        OutboundMessage(
            exchange: "notifications.action-updates", routingKey: "photo-category", body: Array("old".utf8),
            properties: MessageProperties(messageID: "e-old/actions-updated"))
    ]

    /// What a store that processed "e-old" for "note-1" before the upgrade must answer after it.
    private func expectOldEntryDedupes(in store: any StateStore) async throws {
        for source in ["/tests", "/another-source"] {
            #expect(
                try await store.load(requestIdentifier: "note-1", source: source, eventID: "e-old")
                    == .processed(outputs))
            #expect(
                try await store.commit(
                    StateCommit(
                        inboxEntry: InboxEntry(
                            source: source, eventID: "e-old", requestIdentifier: "note-1", outputs: [],
                            processedAt: .now),
                        notification: nil)) == .alreadyProcessed(outputs))
        }
        #expect(
            try await store.load(requestIdentifier: "note-2", source: "/tests", eventID: "e-old")
                == .idReused(requestIdentifier: "note-1"))
        #expect(try await store.load(requestIdentifier: "note-1", source: "/tests", eventID: "e-new") == .unprocessed(nil))
    }

    @Test func aVersionTwoSQLiteFileKeepsItsInbox() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            // Version 2's tables, as that build created them.
            try db.execute(
                sql: """
                    CREATE TABLE notification (request_identifier TEXT PRIMARY KEY NOT NULL,
                        category_identifier TEXT NOT NULL, actions BLOB NOT NULL, version INTEGER NOT NULL,
                        changed_at REAL NOT NULL);
                    CREATE TABLE handler_state (
                        request_identifier TEXT NOT NULL REFERENCES notification ON DELETE CASCADE,
                        handler TEXT NOT NULL, state BLOB NOT NULL, PRIMARY KEY (request_identifier, handler));
                    CREATE TABLE inbox (event_id TEXT PRIMARY KEY NOT NULL, request_identifier TEXT NOT NULL,
                        processed_at REAL NOT NULL);
                    CREATE INDEX inbox_by_processed_at ON inbox (processed_at);
                    CREATE TABLE inbox_output (event_id TEXT NOT NULL REFERENCES inbox ON DELETE CASCADE,
                        position INTEGER NOT NULL, exchange TEXT NOT NULL, routing_key TEXT NOT NULL,
                        properties BLOB NOT NULL, body BLOB NOT NULL, PRIMARY KEY (event_id, position));
                    PRAGMA user_version = 2;
                    """)
            try db.execute(
                sql: "INSERT INTO inbox VALUES ('e-old', 'note-1', ?)", arguments: [Date().timeIntervalSince1970])
            let output = outputs[0]
            try db.execute(
                sql: "INSERT INTO inbox_output VALUES ('e-old', 0, ?, ?, ?, ?)",
                arguments: [
                    output.exchange, output.routingKey, Data(output.properties.storedBytes), Data(output.body),
                ])
        }
        try queue.close()

        let store = try SQLiteStateStore(path: path)
        try await expectOldEntryDedupes(in: store)
        // A process of the previous build that shares the file writes with version 2's statements after the upgrade.
        let oldWriter = try DatabaseQueue(path: path)
        try await oldWriter.write { db in
            try db.execute(
                sql: "INSERT INTO inbox (event_id, request_identifier, processed_at) VALUES ('e-older', 'note-1', ?)",
                arguments: [Date().timeIntervalSince1970])
            let output = outputs[0]
            try db.execute(
                sql: """
                    INSERT INTO inbox_output (event_id, position, exchange, routing_key, properties, body)
                        VALUES ('e-older', 0, ?, ?, ?, ?)
                    """,
                arguments: [
                    output.exchange, output.routingKey, Data(output.properties.storedBytes), Data(output.body),
                ])
        }
        try oldWriter.close()
        #expect(
            try await store.load(requestIdentifier: "note-1", source: "/tests", eventID: "e-older") == .processed(outputs))
        // An entry of the event's own source comes before the empty source's, whichever row SQLite reads first.
        let ownSource = try DatabaseQueue(path: path)
        try await ownSource.write { db in
            try db.execute(
                sql: "INSERT INTO inbox (event_id, source, request_identifier, processed_at) VALUES ('e-older', '/tests', 'note-2', ?)",
                arguments: [Date().timeIntervalSince1970])
        }
        try ownSource.close()
        #expect(try await store.load(requestIdentifier: "note-2", source: "/tests", eventID: "e-older") == .processed([]))
        #expect(
            try await store.load(requestIdentifier: "note-1", source: "/another-source", eventID: "e-older")
                == .processed(outputs))
        // Pruning still finds the old entry, and its outputs go with it.
        #expect(try await store.pruneInbox(processedBefore: Date().addingTimeInterval(60)) == 3)
        try store.close()
        let upgraded = try DatabaseQueue(path: path)
        #expect(try await upgraded.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM inbox_output") } == 0)
        try upgraded.close()
    }

    @Test(.enabled(if: TestPostgres.isAvailable, "needs PostgreSQL: run scripts/test"))
    func aVersionTwoPostgresSchemaKeepsItsInbox() async throws {
        let url = try TestPostgres.freshURL()
        let connection = try await PostgresConnection.connect(
            configuration: try url.connectionConfiguration(), id: 7, logger: .quiet)
        do {
            // Version 2's schema, as that build's migrations left it, with one processed event.
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(url.schema)"), logger: .quiet)
            try await connection.query(PostgresQuery(unsafeSQL: "SET search_path TO \(url.schema)"), logger: .quiet)
            try await connection.query(
                """
                CREATE TABLE responder_schema_migration (
                    version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                """, logger: .quiet)
            for statement in PostgresSchema.migrations[0..<2].joined() {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: .quiet)
            }
            try await connection.query("INSERT INTO responder_schema_migration (version) VALUES (1), (2)", logger: .quiet)
            let stored = StoredBytes.encode(outputs)
            try await connection.query(
                "INSERT INTO inbox (event_id, request_identifier, processed_at, outputs) VALUES ('e-old', 'note-1', now(), \(stored))",
                logger: .quiet)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()

        let directory = try TemporaryDirectory()
        let store = try await TestPostgres.store(in: directory, schema: url.schema)
        try await expectOldEntryDedupes(in: store)
    }
}
