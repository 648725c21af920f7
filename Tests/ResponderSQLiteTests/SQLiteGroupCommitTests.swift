import Foundation
import GRDB
import NotificationEvents
import PipelineHarness
import Responder
import ResponderSQLite
import StoreHarness
import Testing

/// The commits of a batch share transactions, and each still gets exactly the result it would get alone.
@Suite(.timeLimit(.minutes(10))) struct SQLiteGroupCommitTests {
    static func entry(_ id: String, request: String, outputs: [OutboundMessage] = []) -> InboxEntry {
        InboxEntry(source: "/tests", eventID: id, requestIdentifier: request, outputs: outputs, processedAt: .now)
    }

    static func record(_ request: String, state: String = "{}", version: Int64 = 0) -> NotificationRecord {
        NotificationRecord(
            requestIdentifier: request, categoryIdentifier: "c", actions: [Fixtures.like],
            handlerStates: ["h": Array(state.utf8)], version: version)
    }

    @Test func manyCommitsAtOnceAllCommit() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStateStore(path: directory.path("state.sqlite"))
        let output = OutboundMessage(exchange: "x", routingKey: "r", body: [1, 2], properties: MessageProperties())
        let commits = (0..<200).map { n in
            StateCommit(inboxEntry: Self.entry("e\(n)", request: "n\(n)", outputs: [output]), notification: Self.record("n\(n)"))
        }
        let results = await store.commitTogether(commits)
        #expect(results.allSatisfy { (try? $0.get()) == .committed })
        for n in [0, 99, 199] {
            #expect(try await store.load(requestIdentifier: "n\(n)", source: "/tests", eventID: "e\(n)") == .processed([output]))
            #expect(try await store.notification("n\(n)")?.version == 1)
        }
        try store.close()
    }

    /// A commit whose writing fails (here a trigger refuses its event id) fails alone: the others of its batch
    /// are written again on their own and commit.
    @Test func aFailingCommitFailsAloneAndTheRestOfItsBatchCommits() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        try SQLiteStateStore(path: path).close()
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(
                sql: """
                    CREATE TRIGGER refuse_poison BEFORE INSERT ON inbox WHEN NEW.event_id = 'poison'
                    BEGIN SELECT RAISE(ABORT, 'poisoned'); END
                    """)
        }
        try queue.close()
        let store = try SQLiteStateStore(path: path)
        let ids = (0..<40).map { $0 == 20 ? "poison" : "e\($0)" }
        let results = await store.commitTogether(
            ids.map { StateCommit(inboxEntry: Self.entry($0, request: "n-\($0)"), notification: Self.record("n-\($0)")) })
        for (id, result) in zip(ids, results) {
            if id == "poison" {
                #expect(throws: DatabaseError.self) { try result.get() }
                #expect(try await store.notification("n-poison") == nil)
            } else {
                #expect((try? result.get()) == .committed)
                #expect(try await store.notification("n-\(id)")?.version == 1)
            }
        }
        try store.close()
    }

    /// A commit that leaves the actions alone bumps the version and writes the handler states, and the stored
    /// actions stay as they were.
    @Test func unchangedActionsStayAsStored() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStateStore(path: directory.path("state.sqlite"))
        let first = StateCommit(inboxEntry: Self.entry("e1", request: "n"), notification: Self.record("n", state: "1"))
        #expect(try await store.commit(first) == .committed)
        let second = StateCommit(
            inboxEntry: Self.entry("e2", request: "n"), notification: Self.record("n", state: "2", version: 1),
            actionsChanged: false)
        #expect(try await store.commit(second) == .committed)
        let stored = try #require(try await store.notification("n"))
        #expect(stored.version == 2)
        #expect(stored.actions == [Fixtures.like])
        #expect(stored.handlerStates["h"] == Array("2".utf8))
        try store.close()
    }
}
