import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import StoreHarness
import Testing

@testable import ResponderSQLite

/// Pruning a large backlog deletes in many short transactions, and the event path commits between them, so
/// housekeeping never holds the write lock for long; the WAL ends no larger than the store's limit.
@Suite struct PruningBatchesTests {
    /// Twenty batches of 100: many batches, at a cost the suite can afford; the production batch is 2,000.
    private static let backlog = 2_000
    private static let batch = 100

    /// Commits `count` events of `prefix` at `date`, each with a notification of its own and one output.
    private func fill(_ store: SQLiteStateStore, prefix: String, count: Int, at date: Date) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for start in stride(from: 0, to: count, by: 500) {
                group.addTask {
                    for n in start..<min(start + 500, count) {
                        let output = OutboundMessage(
                            exchange: "updates", routingKey: "photo-category", body: Array(repeating: 0x75, count: 300),
                            properties: MessageProperties(messageID: "out-\(prefix)-\(n)"))
                        let commit = StateCommit(
                            inboxEntry: InboxEntry(source: "/tests", eventID: "\(prefix)-\(n)", requestIdentifier: "\(prefix)-note-\(n)", outputs: [output],
                                processedAt: date),
                            notification: NotificationRecord(
                                requestIdentifier: "\(prefix)-note-\(n)", categoryIdentifier: "photo-category",
                                actions: [Fixtures.like], handlerStates: ["likes": Array(#"{"taps":1}"#.utf8)]))
                        guard try await store.commit(commit) == .committed else { throw Unexpected() }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    struct Unexpected: Error {}

    /// What happened between two batches of a pruning pass: a commit of the event path, and whether old rows
    /// were still waiting then.
    actor BetweenBatches {
        var batches = 0
        var committedWhileOldRemained = false

        func record(_ store: SQLiteStateStore, oldRemains: @Sendable () async throws -> Bool) async throws {
            batches += 1
            guard batches == 1 else { return }
            let entry = InboxEntry(source: "/tests", eventID: "fresh-event", requestIdentifier: "fresh-note", outputs: [], processedAt: Date())
            guard try await store.commit(StateCommit(inboxEntry: entry, notification: nil)) == .committed else {
                throw Unexpected()
            }
            committedWhileOldRemained = try await oldRemains()
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func aLargeInboxBacklogIsPrunedInBatchesWithCommitsBetweenThem() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        let store = try SQLiteStateStore(path: path)
        try await fill(store, prefix: "old", count: Self.backlog, at: Date().addingTimeInterval(-3_600))
        let between = BetweenBatches()
        let pruned = try await store.pruneInbox(processedBefore: Date().addingTimeInterval(-60), batchSize: Self.batch) {
            try await between.record(store) {
                try await store.load(requestIdentifier: "x", source: "/tests", eventID: "old-\(Self.backlog - 1)") != .unprocessed(nil)
            }
        }
        #expect(pruned == Self.backlog)
        #expect(await between.batches == Self.backlog / Self.batch, "a full last batch is followed by one that finds none")
        #expect(await between.committedWhileOldRemained, "a commit went through between two batches")
        #expect(try await store.load(requestIdentifier: "fresh-note", source: "/tests", eventID: "fresh-event") == .processed([]))
        #expect(try await store.load(requestIdentifier: "x", source: "/tests", eventID: "old-0") == .unprocessed(nil))
        try expectWALWithinLimit(path)
        try store.close()
    }

    @Test(.timeLimit(.minutes(10)))
    func manyNotificationsArePrunedInBatchesWithCommitsBetweenThem() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        let store = try SQLiteStateStore(path: path)
        try await fill(store, prefix: "old", count: Self.backlog, at: Date().addingTimeInterval(-3_600))
        try await fill(store, prefix: "new", count: 500, at: Date())

        let between = BetweenBatches()
        let pruned = try await store.pruneNotifications(
            changedBefore: Date().addingTimeInterval(-60), batchSize: Self.batch
        ) {
            try await between.record(store) { try await store.notification("old-note-\(Self.backlog - 1)") != nil }
        }
        #expect(pruned == Self.backlog)
        // Each batch looks at 100 rows, old and new alike.
        #expect(await between.batches == (Self.backlog + 500 + Self.batch - 1) / Self.batch)
        #expect(await between.committedWhileOldRemained)
        #expect(try await store.notification("old-note-0") == nil)
        #expect(try await store.notification("old-note-\(Self.backlog - 1)") == nil)
        #expect(try await store.notification("new-note-499")?.version == 1)
        try expectWALWithinLimit(path)
        try store.close()
    }

    private func expectWALWithinLimit(_ path: String) throws {
        let wal = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
        #expect(wal <= SQLiteStateStore.walSizeLimit, "the WAL holds \(wal) bytes")
    }
}
