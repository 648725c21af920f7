import Foundation
import GRDB
import Logging
import NotificationEvents
import PipelineHarness
import Responder
import ResponderSQLite
import StoreHarness
import Testing

/// Notifications that nothing changed for the retention period are forgotten with their handlers' states, so the
/// state does not grow with every notification ever sent; one that is pruned starts afresh.
@Suite struct NotificationPruningTests {

    /// The worker's pruning pass forgets old inbox entries and old notifications, and stops when cancelled.
    @Test(.timeLimit(.minutes(10)))
    func thePruningPassForgetsInboxEntriesAndNotifications() async throws {
        let store = InMemoryStateStore(inboxRetention: .zero, notificationRetention: .zero)
        #expect(try await store.change("n", event: "e1", at: .distantPast) == .committed)
        let pruning = Task { await store.runPruning(every: .milliseconds(10), logger: CapturingLogHandler.logger().0) }
        while true {
            let notification = await store.notification("n")
            let entry = try await store.load(requestIdentifier: "n", source: "/tests", eventID: "e1")
            if notification == nil, entry == .unprocessed(nil) { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        pruning.cancel()
        await pruning.value
    }

    /// A state file of schema version 1 (before `changed_at`) is brought up to version 2 when opened, keeping its
    /// notifications, which count as changed at the upgrade.
    @Test func aVersionOneFileIsUpgradedAndKeepsItsNotifications() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE notification (request_identifier TEXT PRIMARY KEY NOT NULL,
                        category_identifier TEXT NOT NULL, actions BLOB NOT NULL, version INTEGER NOT NULL);
                    CREATE TABLE handler_state (
                        request_identifier TEXT NOT NULL REFERENCES notification ON DELETE CASCADE,
                        handler TEXT NOT NULL, state BLOB NOT NULL, PRIMARY KEY (request_identifier, handler));
                    CREATE TABLE inbox (event_id TEXT PRIMARY KEY NOT NULL, request_identifier TEXT NOT NULL,
                        processed_at REAL NOT NULL);
                    CREATE INDEX inbox_by_processed_at ON inbox (processed_at);
                    CREATE TABLE inbox_output (event_id TEXT NOT NULL REFERENCES inbox ON DELETE CASCADE,
                        position INTEGER NOT NULL, exchange TEXT NOT NULL, routing_key TEXT NOT NULL,
                        properties BLOB NOT NULL, body BLOB NOT NULL, PRIMARY KEY (event_id, position));
                    INSERT INTO notification VALUES ('n1', 'photo-category', '[]', 4);
                    PRAGMA user_version = 1;
                    """)
        }
        try queue.close()

        let store = try SQLiteStateStore(path: path)
        #expect(try await store.notification("n1")?.version == 4)
        #expect(try await store.pruneNotifications(changedBefore: Date().addingTimeInterval(-60)) == 0)
        #expect(try await store.change("n1", event: "e5", at: Date(), version: 4) == .committed)
        #expect(try await store.claimShard(0, for: "w1"), "the upgraded file holds the fleet's tables")
        try store.close()
        let upgraded = try DatabaseQueue(path: path)
        #expect(try await upgraded.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == 5)
        try upgraded.close()
    }
}
