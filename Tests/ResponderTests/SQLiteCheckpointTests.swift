import Foundation
import GRDBSQLite
import NotificationEvents
@testable import Responder
import Testing

/// Checkpoints run outside the commits, and the WAL stays bounded: by the background checkpoint, and by the writer's
/// own when checkpoints cannot keep up.
@Suite(.timeLimit(.minutes(2))) struct SQLiteCheckpointTests {
    /// 4 KiB outputs, so each commit adds more than a page to the WAL.
    private static func commits(_ range: Range<Int>) -> [StateCommit] {
        range.map { n in
            let output = OutboundMessage(
                exchange: "x", routingKey: "r", body: Array(repeating: UInt8(n % 251), count: 4_096),
                properties: MessageProperties())
            return StateCommit(
                inboxEntry: SQLiteGroupCommitTests.entry("e\(n)", request: "n\(n)", outputs: [output]),
                notification: SQLiteGroupCommitTests.record("n\(n)"))
        }
    }

    private static func walSize(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
    }

    /// The most the WAL may hold: a write past the backstop waits for a checkpoint, so the backstop plus one batch's
    /// frames (200 commits of a few pages each), at 4,096 bytes and a 24-byte header a frame.
    private static let walBound = (Int(SQLiteCheckpointer.backstop) + 200 * 4) * (4_096 + 24) + 32

    /// 6,000 commits of 4 KiB outputs write about 12,000 frames, three times the bound: the WAL is recycled all along.
    @Test func theWALStaysBoundedThroughManyCommits() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        let store = try SQLiteStateStore(path: path)
        var largest = 0
        for start in stride(from: 0, to: 6_000, by: 200) {
            let results = await store.commitTogether(Self.commits(start..<start + 200))
            #expect(results.allSatisfy { (try? $0.get()) == .committed })
            largest = max(largest, try Self.walSize(path))
        }
        #expect(largest <= Self.walBound, "the WAL reached \(largest) bytes")
        #expect(try Self.walSize(path) <= Self.walBound)
        for n in [0, 2_999, 5_999] {
            #expect(try await store.notification("n\(n)")?.version == 1)
        }
        try store.close()
    }

    /// Another process's read transaction keeps every checkpoint from copying the frames written after it began: the
    /// commits still succeed and nothing is lost; once it ends, the WAL is copied and cut back.
    @Test func aReaderHoldingCheckpointsBackLosesNothingAndTheWALShrinksAfterIt() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        let store = try SQLiteStateStore(path: path)
        #expect(try await store.commit(Self.commits(0..<1)[0]) == .committed)
        var reader: OpaquePointer?
        #expect(sqlite3_open(path, &reader) == SQLITE_OK)
        #expect(sqlite3_exec(reader, "BEGIN; SELECT count(*) FROM inbox;", nil, nil, nil) == SQLITE_OK)

        for start in stride(from: 1, to: 4_001, by: 200) {
            let results = await store.commitTogether(Self.commits(start..<start + 200))
            #expect(results.allSatisfy { (try? $0.get()) == .committed })
        }
        #expect(try Self.walSize(path) > Self.walBound, "the reader held the WAL back")

        #expect(sqlite3_exec(reader, "COMMIT", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(reader)
        // The first commit after the reader waits for a checkpoint of the whole WAL (it is past the backstop); the
        // second starts the WAL over and cuts the file back.
        for n in 4_001..<4_003 { #expect(try await store.commit(Self.commits(n..<n + 1)[0]) == .committed) }
        #expect(try Self.walSize(path) <= SQLiteStateStore.walSizeLimit)
        for n in [0, 1, 2_000, 4_000, 4_002] {
            #expect(try await store.load(requestIdentifier: "n\(n)", eventID: "e\(n)") != .unprocessed(nil))
            #expect(try await store.notification("n\(n)")?.version == 1)
        }
        try store.close()
    }
}
