import Foundation
import GRDB
import NotificationEvents
import PipelineHarness
import Responder
import StoreHarness
import Synchronization
import Testing

@testable import ResponderSQLite

/// What the SQLite store asks of SQLite per event, watched through SQLite's statement trace on the writer's
/// connection: the costs issue 24 found in a profile, which no result would show.
@Suite(.timeLimit(.minutes(10))) struct SQLiteEventStatementsTests {
    /// The SQL of every statement the writer's connection runs while tracing.
    private final class Trace: Sendable {
        let statements = Mutex<[String]>([])

        func start(on store: SQLiteStateStore) async throws {
            try await store.pool.writeWithoutTransaction { db in
                db.trace { event in
                    guard case .statement(let statement) = event else { return }
                    self.statements.withLock { $0.append(statement.sql) }
                }
            }
        }

        func stop(on store: SQLiteStateStore) async throws -> [String] {
            try await store.pool.writeWithoutTransaction { db in db.trace(nil) }
            return statements.withLock { $0 }
        }
    }

    private static let output = OutboundMessage(
        exchange: "x", routingKey: "r", body: [1, 2], properties: MessageProperties())

    /// A batch of every kind of commit (new notifications, a later version, an event processed already, a version
    /// conflict) and loads of processed and unprocessed events.
    private static func runEveryKindOfCall(on store: SQLiteStateStore) async throws {
        let first = (0..<20).map { n in
            StateCommit(
                inboxEntry: SQLiteGroupCommitTests.entry("e\(n)", request: "n\(n)", outputs: [output]),
                notification: SQLiteGroupCommitTests.record("n\(n)"))
        }
        let later = [
            StateCommit(
                inboxEntry: SQLiteGroupCommitTests.entry("later", request: "n1"),
                notification: SQLiteGroupCommitTests.record("n1", state: #"{"n":2}"#, version: 1)),
            StateCommit(
                inboxEntry: SQLiteGroupCommitTests.entry("e2", request: "n2"), notification: SQLiteGroupCommitTests.record("n2")),
            StateCommit(
                inboxEntry: SQLiteGroupCommitTests.entry("stale", request: "n3"),
                notification: SQLiteGroupCommitTests.record("n3", version: 7)),
        ]
        #expect(await store.commitTogether(first).allSatisfy { (try? $0.get()) == .committed })
        let results = await store.commitTogether(later).map { try? $0.get() }
        #expect(results == [.committed, .alreadyProcessed([output]), .versionConflict])
        let loads = (0..<20).flatMap { n in
            [
                StateLoad(requestIdentifier: "n\(n)", source: "/tests", eventID: "e\(n)"),
                StateLoad(requestIdentifier: "n\(n)", source: "/tests", eventID: "new\(n)"),
            ]
        }
        #expect(await store.loadTogether(loads).allSatisfy { (try? $0.get()) != nil })
    }

    /// No statement of the event path makes SQLite build a temporary b-tree (`OpenEphemeral`): an IN list that
    /// drives an index lookup, or an INSERT reading the table it writes, does, and each costs a page of its own to
    /// set up and tear down, which was a third of the store's instructions per event.
    @Test func theEventPathBuildsNoTemporaryTables() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStateStore(path: directory.path("state.sqlite"))
        let trace = Trace()
        try await trace.start(on: store)
        try await Self.runEveryKindOfCall(on: store)
        let statements = Set(try await trace.stop(on: store))
        let queries = statements.filter { !$0.hasPrefix("BEGIN") && !$0.hasPrefix("COMMIT") }
        #expect(queries.count >= 5)
        for sql in queries {
            let opcodes = try await store.pool.writeWithoutTransaction { db in
                try SQLiteStatement.with("EXPLAIN " + sql, in: db) { explain in
                    var opcodes: [String] = []
                    while try explain.step() { opcodes.append(explain.text(1)) }
                    return opcodes
                }
            }
            #expect(!opcodes.contains("OpenEphemeral"), "\(sql)")
        }
        try store.close()
    }

    /// A group of loads is read in one read transaction: outside one, each statement takes and releases the WAL's
    /// read lock itself (two `fcntl` calls a load).
    @Test func aGroupOfLoadsIsReadInOneTransaction() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStateStore(path: directory.path("state.sqlite"))
        try await Self.runEveryKindOfCall(on: store)
        let trace = Trace()
        try await trace.start(on: store)
        let loads = (0..<40).map { n in StateLoad(requestIdentifier: "n\(n % 20)", source: "/tests", eventID: "e\(n)") }
        #expect(await store.loadTogether(loads).allSatisfy { (try? $0.get()) != nil })
        let statements = try await trace.stop(on: store)
        #expect(statements.filter { $0.hasPrefix("BEGIN") }.count == 1)
        #expect(statements.filter { $0.hasPrefix("COMMIT") }.count == 1)
        #expect(statements.count > 40)
        try store.close()
    }
}
