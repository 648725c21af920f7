import Foundation
import Logging
import NotificationEvents
import PipelineHarness
import Responder
import StoreHarness
import Testing

/// An event id already processed is not run again: its stored outputs come back byte for byte.
@Suite struct InboxTests {
    let handler = TestExtension(actionSets: { state in state.taps == 1 ? [[Fixtures.like]] : [] })
    let delegate = TestDelegate()

    private func pipeline(_ kind: StoreKind, _ directory: TemporaryDirectory) async throws -> ResponsePipeline {
        ResponsePipeline(
            registry: try Fixtures.registry(extension: handler, delegate: delegate),
            store: try await kind.make(in: directory), logger: .quiet)
    }

    @Test(arguments: StoreKind.allCases)
    func theSameEventTwiceGivesTheSameOutputsOnce(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try await pipeline(kind, directory)
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
        let pipeline = try await pipeline(kind, directory)
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
}
