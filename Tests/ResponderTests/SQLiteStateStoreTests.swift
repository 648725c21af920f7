import Foundation
import GRDB
import Logging
import NotificationEvents
import Responder
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

    @Test func twoStoresOnOneFileSeeEachOthersCommits() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        let one = try SQLiteStateStore(path: path)
        let other = try SQLiteStateStore(path: path)
        _ = try await pipeline(one).process(Events.message(Events.response(id: "e1")))
        let fromOther = try await pipeline(other).process(Events.message(Events.response(id: "e2")))
        #expect(try fromOther.outputs.first?.update.data.actions.map(\.identifier) == ["taps-2"])
        #expect(try await pipeline(one).process(Events.message(Events.response(id: "e2"))).disposition == .deduplicated)
        try one.close()
        try other.close()
    }

    @Test func concurrentWritersOnOneFileLoseNoTap() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.sqlite")
        let stores = try (0..<3).map { _ in try SQLiteStateStore(path: path) }
        let pipelines = try stores.map(pipeline)
        await withTaskGroup(of: Void.self) { group in
            for (index, pipeline) in pipelines.enumerated() {
                group.addTask {
                    for n in 0..<10 {
                        let outcome = await pipeline.process(Events.message(Events.response(id: "w\(index)-\(n)")))
                        #expect(outcome.disposition == .updated)
                    }
                }
            }
        }
        let record = try #require(try await stores[0].notification("note-1"))
        #expect(record.version == 30)
        #expect(record.actions.map(\.identifier) == ["taps-30"])
        for store in stores { try store.close() }
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
