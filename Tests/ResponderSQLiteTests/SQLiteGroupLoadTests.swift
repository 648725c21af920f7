import Foundation
import GRDB
import NotificationEvents
import PipelineHarness
import Responder
import ResponderSQLite
import StoreHarness
import Testing

/// The loads of a batch are read in groups on the writer's connection, and each still gets exactly the snapshot it
/// would get alone.
@Suite(.timeLimit(.minutes(10))) struct SQLiteGroupLoadTests {
    /// A load whose stored bytes no longer decode (here actions overwritten behind the store's back) fails alone:
    /// the loads read with it get their snapshots.
    @Test func aFailingLoadFailsAloneAndTheRestOfItsGroupIsRead() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        let store = try SQLiteStateStore(path: path)
        let output = OutboundMessage(exchange: "x", routingKey: "r", body: [1, 2], properties: MessageProperties())
        let commits = (0..<40).map { n in
            StateCommit(
                inboxEntry: SQLiteGroupCommitTests.entry("e\(n)", request: "n\(n)", outputs: [output]),
                notification: SQLiteGroupCommitTests.record("n\(n)"))
        }
        #expect(await store.commitTogether(commits).allSatisfy { (try? $0.get()) == .committed })
        try store.close()
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "UPDATE notification SET actions = x'ff' WHERE request_identifier = 'n20'")
        }
        try queue.close()

        let reopened = try SQLiteStateStore(path: path)
        let loads = (0..<40).flatMap { n in
            [StateLoad(requestIdentifier: "n\(n)", source: "/tests", eventID: "new\(n)"), StateLoad(requestIdentifier: "n\(n)", source: "/tests", eventID: "e\(n)")]
        }
        let snapshots = await reopened.loadTogether(loads)
        for (load, snapshot) in zip(loads, snapshots) {
            switch (load.requestIdentifier, load.eventID.hasPrefix("new")) {
            case ("n20", true):
                #expect(throws: (any Error).self) { try snapshot.get() }
            case (_, true):
                guard case .unprocessed(let record?) = try snapshot.get() else {
                    Issue.record("\(load.requestIdentifier) is not stored")
                    continue
                }
                #expect(record.version == 1)
                #expect(record.actions == [Fixtures.like])
            case (_, false):
                #expect(try snapshot.get() == .processed([output]))
            }
        }
        try reopened.close()
    }
}
