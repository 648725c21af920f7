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

/// Stores of the schema before notifications kept their date keep their notifications and inbox through the upgrade:
/// a notification's state, version and handler states are there (its date unknown until its next response), and an
/// event processed before is still a duplicate.
@Suite struct LifecycleMigrationTests {
    private let outputs = [
        OutboundMessage(
            exchange: "notifications.action-updates", routingKey: "photo-category", body: Array("old".utf8),
            properties: MessageProperties(messageID: "e-old/actions-updated"))
    ]

    private let record = NotificationRecord(
        requestIdentifier: "note-1", categoryIdentifier: "photo-category", actions: [Fixtures.like],
        handlerStates: ["likes": Array(#"{"taps":4}"#.utf8)], version: 4)

    /// What a store that held `record` and processed "e-old" for it before the upgrade must answer after it.
    private func expectKept(by store: any StateStore) async throws {
        #expect(try await store.notification("note-1") == record)
        #expect(try await store.load(requestIdentifier: "note-1", source: "/tests", eventID: "e-old") == .processed(outputs))
        #expect(try await store.load(requestIdentifier: "note-1", source: "/tests", eventID: "e-new") == .unprocessed(record))
    }

    @Test func aVersionFourSQLiteFileKeepsItsNotificationsAndInbox() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            // Version 4's tables, as that build created them, with one notification and one processed event.
            try db.execute(
                sql: """
                    CREATE TABLE notification (request_identifier TEXT PRIMARY KEY NOT NULL,
                        category_identifier TEXT NOT NULL, actions BLOB NOT NULL, version INTEGER NOT NULL,
                        changed_at REAL NOT NULL);
                    CREATE TABLE handler_state (
                        request_identifier TEXT NOT NULL REFERENCES notification ON DELETE CASCADE,
                        handler TEXT NOT NULL, state BLOB NOT NULL, PRIMARY KEY (request_identifier, handler));
                    CREATE TABLE inbox (event_id TEXT NOT NULL, source TEXT NOT NULL DEFAULT '',
                        request_identifier TEXT NOT NULL, processed_at REAL NOT NULL, PRIMARY KEY (event_id, source));
                    CREATE INDEX inbox_by_processed_at ON inbox (processed_at);
                    CREATE TABLE inbox_output (event_id TEXT NOT NULL, source TEXT NOT NULL DEFAULT '',
                        position INTEGER NOT NULL, exchange TEXT NOT NULL, routing_key TEXT NOT NULL,
                        properties BLOB NOT NULL, body BLOB NOT NULL, PRIMARY KEY (event_id, source, position),
                        FOREIGN KEY (event_id, source) REFERENCES inbox ON DELETE CASCADE);
                    CREATE TABLE fleet_member (member TEXT PRIMARY KEY NOT NULL, expires_at REAL NOT NULL);
                    CREATE TABLE shard_lease (shard INTEGER PRIMARY KEY NOT NULL, holder TEXT NOT NULL);
                    PRAGMA user_version = 4;
                    """)
            try db.execute(
                sql: "INSERT INTO notification VALUES ('note-1', 'photo-category', ?, 4, ?)",
                arguments: [Data(EventCodec.encode(record.actions)), Date().timeIntervalSince1970])
            try db.execute(
                sql: "INSERT INTO handler_state VALUES ('note-1', 'likes', ?)",
                arguments: [Data(record.handlerStates["likes"]!)])
            try db.execute(
                sql: "INSERT INTO inbox VALUES ('e-old', '/tests', 'note-1', ?)", arguments: [Date().timeIntervalSince1970])
            let output = outputs[0]
            try db.execute(
                sql: "INSERT INTO inbox_output VALUES ('e-old', '/tests', 0, ?, ?, ?, ?)",
                arguments: [
                    output.exchange, output.routingKey, Data(output.properties.storedBytes), Data(output.body),
                ])
        }
        try queue.close()

        let store = try SQLiteStateStore(path: path)
        try await expectKept(by: store)
        try store.close()
    }

    @Test(.enabled(if: TestPostgres.isAvailable, "needs PostgreSQL: run scripts/test"))
    func aVersionFourPostgresSchemaKeepsItsNotificationsAndInbox() async throws {
        let url = try TestPostgres.freshURL()
        let hex = { (bytes: ByteBuffer) in "'\\x" + bytes.readableBytesView.map { String(format: "%02x", $0) }.joined() + "'" }
        // Version 4's schema, as that build's migrations left it, with one notification and one processed event.
        try await TestPostgres.run(
            [
                "CREATE SCHEMA \(url.schema)",
                """
                CREATE TABLE responder_schema_migration (
                    version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                """,
            ] + PostgresSchema.migrations[0..<4].joined() + [
                "INSERT INTO responder_schema_migration (version) VALUES (1), (2), (3), (4)",
                """
                INSERT INTO notification (request_identifier, category_identifier, actions, handler_states, version,
                    changed_at)
                VALUES ('note-1', 'photo-category', \(hex(ByteBuffer(bytes: EventCodec.encode(record.actions)))),
                    \(hex(StoredBytes.encode(record.handlerStates))), 4, now())
                """,
                """
                INSERT INTO inbox (event_id, source, request_identifier, processed_at, outputs)
                VALUES ('e-old', '/tests', 'note-1', now(), \(hex(StoredBytes.encode(outputs))))
                """,
            ], in: url)

        let directory = try TemporaryDirectory()
        let store = try await TestPostgres.store(in: directory, schema: url.schema)
        try await expectKept(by: store)
    }
}
