import Foundation
import Logging
import NotificationEvents
import PipelineHarness
import Responder
import StoreHarness
import Testing

/// A failing handler leaves nothing behind: no state, no inbox entry, no outputs.
@Suite struct AtomicityTests {
    /// Fails while `failing` is set, after changing its state and the actions.
    final class Switch: @unchecked Sendable {
        private let lock = NSLock()
        private var on = true
        var failing: Bool {
            get { lock.withLock { on } }
            set { lock.withLock { on = newValue } }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aThrowingExtensionLeavesNoPartialState(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        let failing = Switch()
        let handler = TestExtension(
            actionSets: { _ in [[Fixtures.share]] }, failure: { failing.failing ? Boom() : nil })
        let pipeline = ResponsePipeline(
            registry: try Fixtures.registry(extension: handler), store: store, logger: .quiet)
        let event = Events.response(id: "e1")

        let failed = await pipeline.process(Events.message(event))
        #expect(failed.isRetryableFailure == true)
        #expect(failed.outputs.isEmpty)
        #expect(try await store.load(requestIdentifier: "note-1", source: "/tests", eventID: "e1") == .unprocessed(nil))

        failing.failing = false
        let retried = await pipeline.process(Events.message(event))
        #expect(retried.disposition == .updated)
        let record = try #require(try await store.notification("note-1"))
        let state = try EventCodec.decodeStored(
            TestExtension.State.self, from: try #require(record.handlerStates["test-extension"]))
        #expect(state.taps == 1, "the failed run's tap must not count")
        #expect(record.version == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func aDelegateFailingAfterAForwardingExtensionUndoesTheExtensionsEffects(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let store = try await kind.make(in: directory)
        let handler = TestExtension(actionSets: { _ in [[Fixtures.share]] }, option: .dismissAndForwardAction)
        let delegate = TestDelegate(failure: { Boom() })
        let pipeline = ResponsePipeline(
            registry: try Fixtures.registry(extension: handler, delegate: delegate), store: store, logger: .quiet)
        let outcome = await pipeline.process(Events.message(Events.response(id: "e1")))
        #expect(outcome.isRetryableFailure == true)
        #expect(handler.journal.entries.count == 1 && delegate.journal.entries.count == 1)
        #expect(try await store.load(requestIdentifier: "note-1", source: "/tests", eventID: "e1") == .unprocessed(nil))
    }

    @Test func errorsAreRetryableUnlessTheHandlerSaysOtherwise() async throws {
        struct Classified: HandlerFailure {
            var isRetryable: Bool
        }
        let cases: [(any Error, Bool)] = [
            (Boom(), true), (PermanentFailure(Boom()), false), (PermanentFailure("no such photo"), false),
            (Classified(isRetryable: true), true), (Classified(isRetryable: false), false),
        ]
        for (error, retryable) in cases {
            let handler = TestExtension(failure: { error })
            let pipeline = ResponsePipeline(
                registry: try Fixtures.registry(extension: handler), store: InMemoryStateStore(), logger: .quiet)
            let outcome = await pipeline.process(Events.message(Events.response(id: "e1")))
            #expect(outcome.isRetryableFailure == retryable, "\(error)")
        }
    }

    @Test func aPermanentFailureDescribesWhatWentWrong() {
        #expect(PermanentFailure("no such photo").description == "no such photo")
        #expect(PermanentFailure(Boom()).description == "boom")
    }
}
