import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import StoreHarness
import Testing

@testable import ResponderPostgres

/// While a rolling deploy runs, workers of the previous build still call version 3's `commit_events`. They know
/// nothing of removed notifications, so their commit must not bring one back.
@Suite(.enabled(if: TestPostgres.isAvailable, "needs PostgreSQL: run scripts/test"), .timeLimit(.minutes(10)))
struct PostgresRollingDeployTests {
    @Test func aWorkerOfThePreviousBuildCannotWriteOverARemovedNotification() async throws {
        let directory = try TemporaryDirectory()
        let store = try await TestPostgres.store(in: directory)
        let tombstone = NotificationRecord(
            requestIdentifier: "note-1", categoryIdentifier: "photo-category", actions: [], version: 0,
            notificationDate: Date(timeIntervalSince1970: 1_700_000_000), isRemoved: true)
        let entry = InboxEntry(
            source: "/tests", eventID: "removal-1", requestIdentifier: "note-1", outputs: [], processedAt: Date())
        _ = try await store.commit(StateCommit(inboxEntry: entry, notification: tombstone, replacesHandlerStates: true))
        #expect(try await store.notification("note-1")?.version == 1)

        // The previous build's call: an update of note-1 loaded at version 1, as it would after reading the tombstone
        // as a live notification.
        try await TestPostgres.run(
            [
                """
                SELECT * FROM commit_events(
                    ARRAY['/old'], ARRAY['tap-9'], ARRAY['note-1'], ARRAY[now()], ARRAY['\\\\x'::bytea],
                    ARRAY[2::smallint], ARRAY['note-1'], ARRAY['photo-category'], ARRAY['\\\\x'::bytea], ARRAY[true],
                    ARRAY['\\\\x'::bytea], ARRAY[1::bigint])
                """
            ], in: try TestPostgres.schemaURL(try #require(directory.schema)))

        let after = try #require(try await store.notification("note-1"))
        #expect(after.isRemoved && after.version == 1, "still the tombstone: the old commit was a version conflict")
        let snapshot = try await store.load(requestIdentifier: "note-1", source: "/old", eventID: "tap-9")
        #expect(snapshot == .unprocessed(after), "and the event was not recorded as processed")
    }
}
