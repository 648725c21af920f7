import Foundation
import Logging
import NotificationEvents
import PipelineHarness
import PostgresNIO
import Responder
import StoreHarness
import Testing

@testable import ResponderPostgres

/// What the PostgreSQL store makes of the server's errors: real errors of the real server, raised with each
/// SQLSTATE, or met by a statement of the store itself.
@Suite(.enabled(if: TestPostgres.isAvailable, "needs PostgreSQL: run scripts/test"), .timeLimit(.minutes(10)))
struct PostgresFailureTests {
    /// The error the server answers a statement raising `state` with.
    private func serverError(_ state: String) async throws -> PSQLError {
        let url = try TestPostgres.freshURL()
        let connection = try await PostgresConnection.connect(
            configuration: try url.connectionConfiguration(), id: 9, logger: .quiet)
        defer { Task { try? await connection.close() } }
        let raise = "DO $$ BEGIN RAISE EXCEPTION 'raised by the test' USING ERRCODE = '\(state)'; END $$"
        return try await #require(throws: PSQLError.self) {
            try await connection.query(PostgresQuery(unsafeSQL: raise), logger: .quiet)
        }
    }

    @Test(arguments: [
        "08006", "28P01", "3D000", "3F000", "0A000", "25006", "26000", "42501", "42703", "42883", "42P01", "53100",
        "57P01", "58030", "XX000", "55P03",
    ])
    func whatSaysTheDatabaseIsWrongMakesTheStoreUnavailable(state: String) async throws {
        guard case .unavailable(let unavailable) = PostgresFailure(try await serverError(state)) else {
            Issue.record("\(state) is not taken for the store's trouble")
            return
        }
        #expect(unavailable.reason == "PostgreSQL: \(state) raised by the test")
    }

    /// Only errors that can leave prepared statements failing or unfit start a new generation of their names: each
    /// generation stays prepared on the connections that stay open, so lost connections and timeouts of a flapping
    /// database must not pile them up.
    @Test func onlyASchemaChangeRenamesThePreparedStatements() {
        for state in ["42P01", "42703", "42883", "42501", "0A000", "3F000", "26000"] {
            #expect(PreparedStatementGeneration.invalidates(state), "\(state)")
        }
        for state in [nil, "08006", "57014", "55P03", "53300", "57P01", "40001"] as [String?] {
            #expect(!PreparedStatementGeneration.invalidates(state), "\(state ?? "no server error")")
        }
    }

    @Test(arguments: ["40001", "40P01"])
    func serializationFailuresAndDeadlocksAreRetried(state: String) async throws {
        guard case .retry = PostgresFailure(try await serverError(state)) else {
            Issue.record("\(state) is not retried")
            return
        }
    }

    @Test(arguments: ["22001", "22021", "23505", "23514", "54000"])
    func aValueTheServerRefusesIsTheEventsFailure(state: String) async throws {
        guard case .refusedValue = PostgresFailure(try await serverError(state)) else {
            Issue.record("\(state) is not the event's failure")
            return
        }
    }

    /// Events whose `source` the server cannot store (a U+0000, refused with 22021) are dead-lettered one by one as
    /// invalid, however many come in a row: they never add up to a store outage that pauses the worker (the
    /// backstop counts ten different failing events), so a producer cannot pause it with them.
    @Test func eventsWithAValueTheServerRefusesAreDeadLetteredWithoutPausing() async throws {
        let directory = try TemporaryDirectory()
        let store = try await TestPostgres.store(in: directory)
        let pipeline = ResponsePipeline(registry: try Fixtures.registry(), store: store, logger: .quiet)
        // More than the ten different failing events after which the backstop takes the store for broken.
        for index in 0..<12 {
            var event = Events.response(id: "refused-\(index)", request: "refused-\(index)")
            event.source = "/tests\u{0}"
            let outcome = await pipeline.process(Events.message(event))
            #expect(outcome.deadLetterReason == .invalidField, "\(outcome)")
            if case .deadLetter(_, let detail) = outcome {
                #expect(detail.hasPrefix("the state store refused a value of this event: PostgreSQL: 22021"), "\(detail)")
            }
        }
        let fine = await pipeline.process(Events.message(Events.response(id: "fine", request: "fine")))
        #expect(fine.disposition == .noUpdate, "the store takes the next event as ever: \(fine)")
    }

    /// A dead-letter detail and a log line are the error's description: it says what the server said, not
    /// postgres-nio's generic text.
    @Test func anEventsFailureSaysTheSQLStateAndTheServersMessage() async throws {
        let directory = try TemporaryDirectory()
        let store = try await TestPostgres.store(in: directory)
        let commit = StateCommit(
            inboxEntry: InboxEntry(source: "/tests", eventID: "event\u{0}1", requestIdentifier: "request-1", outputs: [], processedAt: Date()),
            notification: nil, actionsChanged: false)
        let error = await #expect(throws: (any Error).self) { try await store.commit(commit) }
        let detail = String(describing: try #require(error))
        #expect(detail.hasPrefix("PostgreSQL: 22021 invalid byte sequence for encoding \"UTF8\": 0x00"), "\(detail)")
        #expect(!detail.contains("Generic description"))
    }
}
