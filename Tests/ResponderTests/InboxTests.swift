import Foundation
import Logging
import NotificationEvents
import Responder
import Testing

/// An event id already processed is not run again: its stored outputs come back byte for byte.
@Suite struct InboxTests {
    let handler = TestExtension(actionSets: { state in state.taps == 1 ? [[Fixtures.like]] : [] })
    let delegate = TestDelegate()

    private func pipeline(_ kind: StoreKind, _ directory: TemporaryDirectory) throws -> ResponsePipeline {
        ResponsePipeline(
            registry: try Fixtures.registry(extension: handler, delegate: delegate),
            store: try kind.make(in: directory), logger: .quiet)
    }

    @Test(arguments: StoreKind.allCases)
    func theSameEventTwiceGivesTheSameOutputsOnce(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try pipeline(kind, directory)
        let event = Events.response(id: "e1")
        let first = await pipeline.process(Events.message(event, headers: ["traceparent": .string("00-a-b-01")]))
        let again = await pipeline.process(
            Events.message(event, headers: ["traceparent": .string("00-a-b-01")], redelivered: true))
        #expect(first.disposition == .updated)
        #expect(again.disposition == .deduplicated)
        #expect(first.outputs.count == 1)
        #expect(again.outputs == first.outputs)
        #expect(again.outputs.map(\.body) == first.outputs.map(\.body))
        #expect(handler.journal.entries.count == 1)
        let record = try await pipeline.store.notification("note-1")
        #expect(record?.version == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func aRepeatedEventWithoutOutputsRunsNothingAgain(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try pipeline(kind, directory)
        _ = await pipeline.process(Events.message(Events.response(id: "e1")))
        let second = Events.response(id: "e2")
        #expect(await pipeline.process(Events.message(second)).disposition == .noUpdate)
        #expect(await pipeline.process(Events.message(second)).disposition == .deduplicated)
        let appEvent = Events.response(id: "e3", action: .default)
        #expect(await pipeline.process(Events.message(appEvent)).disposition == .noUpdate)
        #expect(await pipeline.process(Events.message(appEvent)).disposition == .deduplicated)
        #expect(handler.journal.entries.map(\.eventID) == ["e1", "e2"])
        #expect(delegate.journal.entries.map(\.eventID) == ["e3"])
    }

    @Test(arguments: StoreKind.allCases)
    func aCommitOfAnEventProcessedMeanwhileReturnsTheStoredOutputs(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let output = OutboundMessage(
            exchange: "x", routingKey: "r", body: Array("stored".utf8),
            properties: MessageProperties(messageId: "e1/actions-updated", headers: ["traceparent": .string("t")]))
        let entry = InboxEntry(eventID: "e1", requestIdentifier: "note-1", outputs: [output], processedAt: .now)
        #expect(try await store.commit(StateCommit(inboxEntry: entry, notification: nil)) == .committed)
        var late = entry
        late.outputs = []
        #expect(try await store.commit(StateCommit(inboxEntry: late, notification: nil)) == .alreadyProcessed([output]))
        #expect(try await store.load(requestIdentifier: "note-1", eventID: "e1") == .processed([output]))
    }

    @Test(arguments: StoreKind.allCases)
    func pruningForgetsOnlyOldEntries(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try kind.make(in: directory)
        let now = Date()
        let output = OutboundMessage(exchange: "x", routingKey: "r", body: [2], properties: MessageProperties())
        for (id, age) in [("old", 8.0 * 86_400), ("recent", 3_600.0)] {
            let entry = InboxEntry(
                eventID: id, requestIdentifier: "note-1",
                outputs: [OutboundMessage(exchange: "x", routingKey: "r", body: [1], properties: MessageProperties())],
                processedAt: now.addingTimeInterval(-age))
            _ = try await store.commit(StateCommit(inboxEntry: entry, notification: nil))
        }
        let pruned = try await store.pruneInbox(processedBefore: now.addingTimeInterval(-store.inboxRetention.seconds))
        #expect(pruned == 1)
        #expect(try await store.load(requestIdentifier: "note-1", eventID: "old") == .unprocessed(nil))
        #expect(try await store.load(requestIdentifier: "note-1", eventID: "recent") != .unprocessed(nil))
        // Nothing of the pruned entry is left behind: the same id can be processed afresh.
        let fresh = InboxEntry(eventID: "old", requestIdentifier: "note-1", outputs: [output], processedAt: now)
        #expect(try await store.commit(StateCommit(inboxEntry: fresh, notification: nil)) == .committed)
        #expect(try await store.load(requestIdentifier: "note-1", eventID: "old") == .processed([output]))
    }

    @Test func theDefaultRetentionIsSevenDays() throws {
        let directory = try TemporaryDirectory()
        #expect(InMemoryStateStore().inboxRetention == .seconds(7 * 86_400))
        #expect(try SQLiteStateStore(path: directory.path("s.sqlite")).inboxRetention == .seconds(7 * 86_400))
    }
}

extension Duration {
    var seconds: TimeInterval { Double(components.seconds) }
}
