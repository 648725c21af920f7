import Foundation
import GRDB
import Logging
import NotificationEvents
import PipelineHarness
import Responder
import ResponderSQLite
import StoreHarness
import Testing

/// The SQLite store keeps everything across restarts and between processes sharing its file.
@Suite struct SQLiteStateStoreTests {
    let handler = TestExtension(actionSets: { state in
        [[NotificationAction(identifier: "taps-\(state.taps)", title: "")]]
    })

    private func pipeline(_ store: SQLiteStateStore) throws -> ResponsePipeline {
        var configuration = PipelineConfiguration()
        // Writers that contend for one notification all make progress, but any one may lose many times in a row.
        configuration.maxConflictRetries = 1000
        return ResponsePipeline(
            registry: try Fixtures.registry(extension: handler), store: store, configuration: configuration,
            logger: .quiet)
    }

    @Test func stateAndInboxSurviveClosingAndReopeningTheFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        let first = try SQLiteStateStore(path: path)
        let firstOutcome = try await pipeline(first).process(Events.message(Events.response(id: "e1")))
        _ = try await pipeline(first).process(Events.message(Events.response(id: "e2")))
        try first.close()

        let reopened = try SQLiteStateStore(path: path)
        let record = try #require(try await reopened.notification("note-1"))
        #expect(record.version == 2)
        #expect(record.actions.map(\.identifier) == ["taps-2"])
        let redelivered = try await pipeline(reopened).process(Events.message(Events.response(id: "e1")))
        #expect(redelivered.disposition == .deduplicated)
        #expect(redelivered.outputs == firstOutcome.outputs)
        let next = try await pipeline(reopened).process(Events.message(Events.response(id: "e3")))
        #expect(try next.outputs.first?.update.data.actions.map(\.identifier) == ["taps-3"])
        #expect(handler.journal.entries.map(\.eventID) == ["e1", "e2", "e3"])
        try reopened.close()
    }

    @Test func aFileOfANewerSchemaIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        try SQLiteStateStore(path: path).close()
        let queue = try DatabaseQueue(path: path)
        try await queue.write { try $0.execute(sql: "PRAGMA user_version = 99") }
        try queue.close()
        let error = try #require(throws: (any Error).self) { try SQLiteStateStore(path: path) }
        #expect("\(error)".contains("schema version 99"))
    }
}
