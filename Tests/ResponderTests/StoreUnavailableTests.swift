import Foundation
import GRDB
import GRDBSQLite
import NotificationEvents
import PipelineHarness
import StoreHarness
import Testing

@testable import Responder
@testable import ResponderSQLite

/// SQLite failures that waiting may cure come out of the store as ``StateStoreUnavailable`` with a short reason
/// that holds no event data; the pipeline turns them into ``ResponseOutcome/storeUnavailable(_:)``, never into the
/// input's failure; replay stops on them with the line.
@Suite struct StoreUnavailableTests {
    /// An inbox entry for `eventID` whose one output has a body of `size` bytes.
    private func commit(_ eventID: String, outputSize: Int = 200, at date: Date = Date()) -> StateCommit {
        let output = OutboundMessage(
            exchange: "updates", routingKey: "photo-category", body: Array(repeating: UInt8(ascii: "u"), count: outputSize),
            properties: MessageProperties(messageID: "out-\(eventID)"))
        return StateCommit(
            inboxEntry: InboxEntry(source: "/tests", eventID: eventID, requestIdentifier: "note-1", outputs: [output], processedAt: date),
            notification: nil)
    }

    /// A store capped at its size (SQLite's max_page_count) fills up: the commit that needs a page more fails with
    /// a genuine SQLITE_FULL, as StateStoreUnavailable; so does the availability check, until pruning frees room.
    @Test func aFullFileMakesTheStoreUnavailableUntilPruningFreesRoom() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        let filler = try SQLiteStateStore(path: path)
        let old = Date().addingTimeInterval(-3_600)
        for n in 0..<40 { #expect(try await filler.commit(commit("old-\(n)", outputSize: 4_000, at: old)) == .committed) }
        try filler.close()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)

        let store = try SQLiteStateStore(path: path, maximumSize: size + 8 * 4096)
        var failure: StateStoreUnavailable?
        for n in 0..<100 where failure == nil {
            do {
                _ = try await store.commit(commit("secret-event-\(n)", outputSize: 4_000))
            } catch let unavailable as StateStoreUnavailable {
                failure = unavailable
            }
        }
        let full = try #require(failure, "100 commits of 4 kB fit in 32 kB more")
        #expect(full.reason == "database or disk is full (SQLITE_FULL, extended code 13)")
        await #expect(throws: StateStoreUnavailable.self) { try await store.checkAvailability() }

        #expect(try await store.pruneInbox(processedBefore: Date().addingTimeInterval(-60)) == 40)
        try await store.checkAvailability()
        #expect(try await store.commit(commit("after-pruning", outputSize: 4_000)) == .committed)
        try store.close()
    }

    /// A batch whose transaction fills the file: SQLite may roll the transaction back itself on SQLITE_FULL, and
    /// nothing of the batch may then be written outside it. What the store holds afterwards is exactly what its
    /// results say: each commit reported committed is stored with its outputs, and no other is stored at all.
    @Test func aBatchThatFillsTheFileStoresExactlyWhatItsResultsSay() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        let filler = try SQLiteStateStore(path: path)
        for n in 0..<40 { #expect(try await filler.commit(commit("old-\(n)", outputSize: 4_000)) == .committed) }
        try filler.close()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)

        let store = try SQLiteStateStore(path: path, maximumSize: size + 8 * 4096)
        // Commits of notifications of their own, as a worker's batch holds: each writes a record, an inbox entry and
        // an output.
        let batch = (0..<60).map { n in
            let entry = commit("batch-\(n)", outputSize: 1_500).inboxEntry
            let record = NotificationRecord(
                requestIdentifier: "note-batch-\(n)", categoryIdentifier: "photo-category",
                actions: [NotificationAction(identifier: "action-\(n)", title: "")], handlerStates: ["h": Array(repeating: 7, count: 1_500)])
            return StateCommit(
                inboxEntry: InboxEntry(
                    source: entry.source, eventID: entry.eventID, requestIdentifier: record.requestIdentifier,
                    outputs: entry.outputs, processedAt: entry.processedAt),
                notification: record)
        }
        let results = try await store.commit(batch)
        #expect(results.contains { if case .failure = $0 { true } else { false } }, "60 commits of 3 kB fit in 32 kB more")
        let snapshots = try await store.load(
            batch.map {
                StateLoad(requestIdentifier: $0.inboxEntry.requestIdentifier, source: "/tests", eventID: $0.inboxEntry.eventID)
            })
        for (index, (result, snapshot)) in zip(results, snapshots).enumerated() {
            let committed = if case .success(.committed) = result { true } else { false }
            switch try snapshot.get() {
            case .processed(let outputs):
                #expect(committed, "batch-\(index) is stored, its result \(result)")
                #expect(outputs == batch[index].inboxEntry.outputs, "batch-\(index) is stored without its outputs")
            default:
                #expect(!committed, "batch-\(index) is reported committed and not stored")
            }
        }
        try store.close()
    }

    /// Another process holding the write lock past the busy timeout: SQLITE_BUSY, as StateStoreUnavailable.
    @Test func aLockHeldPastTheBusyTimeoutMakesTheStoreUnavailable() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        let store = try SQLiteStateStore(path: path, busyTimeout: .milliseconds(20))
        // Another process's connection, through SQLite's C interface: GRDB refuses to leave a transaction open.
        var other: OpaquePointer?
        #expect(sqlite3_open(path, &other) == SQLITE_OK)
        #expect(sqlite3_exec(other, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)

        await #expect(throws: StateStoreUnavailable(reason: "database is locked (SQLITE_BUSY, extended code 5)")) {
            try await store.commit(commit("e1"))
        }
        await #expect(throws: StateStoreUnavailable.self) { try await store.checkAvailability() }

        #expect(sqlite3_exec(other, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
        try await store.checkAvailability()
        #expect(try await store.commit(commit("e1")) == .committed)
        sqlite3_close(other)
        try store.close()
    }

    /// Every code waiting may cure maps, with its extended code; the event's faults and misuse stay as they are.
    @Test(arguments: [
        (ResultCode.SQLITE_FULL, "database or disk is full (SQLITE_FULL, extended code 13)"),
        (ResultCode.SQLITE_IOERR_FSYNC, "disk I/O error (SQLITE_IOERR, extended code 1034)"),
        (ResultCode.SQLITE_IOERR_SHMMAP, "disk I/O error (SQLITE_IOERR, extended code 5386)"),
        (ResultCode.SQLITE_BUSY_SNAPSHOT, "database is locked (SQLITE_BUSY, extended code 517)"),
        (ResultCode.SQLITE_LOCKED, "database table is locked (SQLITE_LOCKED, extended code 6)"),
        (ResultCode.SQLITE_READONLY_DBMOVED, "attempt to write a readonly database (SQLITE_READONLY, extended code 1032)"),
        (ResultCode.SQLITE_CORRUPT, "database disk image is malformed (SQLITE_CORRUPT, extended code 11)"),
        (ResultCode.SQLITE_NOTADB, "file is not a database (SQLITE_NOTADB, extended code 26)"),
        (ResultCode.SQLITE_CANTOPEN, "unable to open database file (SQLITE_CANTOPEN, extended code 14)"),
        (ResultCode.SQLITE_NOMEM, "out of memory (SQLITE_NOMEM, extended code 7)"),
        (ResultCode.SQLITE_ERROR, "SQL logic error (SQLITE_ERROR, extended code 1)"),
        (ResultCode.SQLITE_ABORT_ROLLBACK, "abort due to ROLLBACK (SQLITE_ABORT, extended code 516)"),
    ])
    func curableFailuresMapToUnavailable(code: ResultCode, reason: String) {
        let error = DatabaseError(
            resultCode: code, message: "a message naming event secret-event-1",
            sql: "INSERT INTO inbox VALUES ('secret-event-1')")
        #expect(SQLiteUnavailability.map(error) as? StateStoreUnavailable == StateStoreUnavailable(reason: reason))
    }

    @Test(arguments: [
        ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY, .SQLITE_TOOBIG, .SQLITE_MISUSE, .SQLITE_MISMATCH, .SQLITE_RANGE,
    ])
    func otherFailuresStayAsTheyAre(code: ResultCode) {
        let mapped = SQLiteUnavailability.map(DatabaseError(resultCode: code))
        #expect((mapped as? DatabaseError)?.extendedResultCode == code)
    }

    /// A store that fails every commit with `error`.
    actor FailingStore: StateStore {
        let inboxRetention = Duration.seconds(3_600)
        let notificationRetention = Duration.seconds(3_600)
        let error: any Error
        private let memory = InMemoryStateStore()

        init(_ error: any Error) { self.error = error }

        func load(_ loads: [StateLoad]) async throws -> [Result<StateSnapshot, any Error>] { await memory.load(loads) }
        func commit(_ commits: [StateCommit]) throws -> [Result<CommitResult, any Error>] { throw error }
        func notification(_ requestIdentifier: String) async throws -> NotificationRecord? { nil }
        func inboxEntries(of requestIdentifier: String, limit: Int) -> [InboxEntry] { [] }
        func pruneInbox(processedBefore cutoff: Date) -> Int { 0 }
        func pruneNotifications(changedBefore cutoff: Date) -> Int { 0 }
        func checkAvailability() throws { throw error }
    }

    struct Broken: Error {}

    @Test func thePipelineReportsAnUnavailableStoreAsItsOwnOutcome() async throws {
        let unavailable = StateStoreUnavailable(reason: "disk I/O error (SQLITE_IOERR, extended code 778)")
        let paused = ResponsePipeline(registry: try Fixtures.registry(), store: FailingStore(unavailable), logger: .quiet)
        guard case .storeUnavailable(let reported) = await paused.process(Events.message(Events.response(id: "e1"))) else {
            Issue.record("an unavailable store must not be the input's failure")
            return
        }
        #expect(reported == unavailable)
        // Any other store error is still the input's (retryable) failure.
        let failing = ResponsePipeline(registry: try Fixtures.registry(), store: FailingStore(Broken()), logger: .quiet)
        #expect(await failing.process(Events.message(Events.response(id: "e1"))).isRetryableFailure == true)
    }

    @Test func replayStopsAtTheFirstLineThatMeetsAnUnavailableStore() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("fixture.jsonl")
        let lines = ["not json", String(decoding: EventCodec.encode(FixtureLine(delivered: Events.message(Events.response(id: "e2")))), as: UTF8.self)]
        try Data(lines.joined(separator: "\n").utf8).write(to: url)
        let unavailable = StateStoreUnavailable(reason: "database or disk is full (SQLITE_FULL, extended code 13)")
        let pipeline = ResponsePipeline(registry: try Fixtures.registry(), store: FailingStore(unavailable), logger: .quiet)
        var problems: [ReplayProblem] = []
        await #expect(throws: ReplayStoreUnavailable(line: 2, unavailable: unavailable)) {
            _ = try await Replay(pipeline: pipeline).run(fixture: url, onOutput: { _ in }, onProblem: { problems.append($0) })
        }
        #expect(problems.map(\.line) == [1], "the line before it is reported as usual")
    }
}
