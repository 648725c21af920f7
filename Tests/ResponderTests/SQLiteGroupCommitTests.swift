import Foundation
import GRDB
import NotificationEvents
import Responder
import Testing

/// Commits that arrive together share transactions, and each still gets exactly the result it would get alone.
@Suite(.timeLimit(.minutes(2))) struct SQLiteGroupCommitTests {
    static func entry(_ id: String, request: String, outputs: [OutboundMessage] = []) -> InboxEntry {
        InboxEntry(eventID: id, requestIdentifier: request, outputs: outputs, processedAt: .now)
    }

    static func record(_ request: String, state: String = "{}", version: Int64 = 0) -> NotificationRecord {
        NotificationRecord(
            requestIdentifier: request, categoryIdentifier: "c", actions: [Fixtures.like],
            handlerStates: ["h": Array(state.utf8)], version: version)
    }

    /// The commits, all started at once; their results in the same order.
    static func commitTogether(_ commits: [StateCommit], to store: SQLiteStateStore) async -> [Result<CommitResult, any Error>] {
        await withTaskGroup(of: (Int, Result<CommitResult, any Error>).self) { group in
            for (index, commit) in commits.enumerated() {
                group.addTask {
                    do {
                        return (index, .success(try await store.commit(commit)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var results = [Result<CommitResult, any Error>?](repeating: nil, count: commits.count)
            for await (index, result) in group { results[index] = result }
            return results.map { $0! }
        }
    }

    @Test func manyCommitsAtOnceAllCommit() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStateStore(path: directory.path("state.sqlite"))
        let output = OutboundMessage(exchange: "x", routingKey: "r", body: [1, 2], properties: MessageProperties())
        let commits = (0..<200).map { n in
            StateCommit(inboxEntry: Self.entry("e\(n)", request: "n\(n)", outputs: [output]), notification: Self.record("n\(n)"))
        }
        let results = await Self.commitTogether(commits, to: store)
        #expect(results.allSatisfy { (try? $0.get()) == .committed })
        for n in [0, 99, 199] {
            #expect(try await store.load(requestIdentifier: "n\(n)", eventID: "e\(n)") == .processed([output]))
            #expect(try await store.notification("n\(n)")?.version == 1)
        }
        try store.close()
    }

    /// Within a batch each commit sees what the ones before it wrote: the same event twice is processed once,
    /// two writers of one notification from one version conflict.
    @Test func commitsOfOneBatchSeeEachOther() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStateStore(path: directory.path("state.sqlite"))
        let sameEvent = StateCommit(inboxEntry: Self.entry("twice", request: "a"), notification: nil)
        let results = await Self.commitTogether(
            [
                sameEvent, sameEvent,
                StateCommit(inboxEntry: Self.entry("b1", request: "b"), notification: Self.record("b", state: "1")),
                StateCommit(inboxEntry: Self.entry("b2", request: "b"), notification: Self.record("b", state: "2")),
            ], to: store)
        let outcomes = results.map { try? $0.get() }
        #expect(outcomes[0...1].sorted { "\($0!)" < "\($1!)" } == [.alreadyProcessed([]), .committed])
        #expect(outcomes[2...3].sorted { "\($0!)" < "\($1!)" } == [.committed, .versionConflict])
        let winner = outcomes[2] == .committed ? "1" : "2"
        #expect(try await store.notification("b")?.handlerStates["h"] == Array(winner.utf8))
        let loser = winner == "1" ? "b2" : "b1"
        #expect(try await store.load(requestIdentifier: "b", eventID: loser) == .unprocessed(try await store.notification("b")))
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
        let results = await Self.commitTogether(
            ids.map { StateCommit(inboxEntry: Self.entry($0, request: "n-\($0)"), notification: Self.record("n-\($0)")) },
            to: store)
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
