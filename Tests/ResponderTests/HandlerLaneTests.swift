import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// Handlers run inline in a few lanes per batch, each lane taking one notification's events after another: a call past
/// its limit must hand the rest of its lane's work to a fresh lane, so neither its notification's later events nor the
/// other notifications queued behind it wait for a handler that ignores its cancellation.
@Suite(.timeLimit(.minutes(10)))
struct HandlerLaneTests {
    @Test func aCallPastItsLimitLeavesItsLanesOtherWorkToAFreshLane() async throws {
        let gate = Signal()
        var registry = try Fixtures.registry(extension: nil)
        // Hangs on the event "hang" until the gate opens, whether cancelled or not.
        let hanging = GatedExtension(name: "hanging-once", gate: gate, heedsCancellation: false, gatedEvent: "hang")
        try registry.register(hanging, timeout: .milliseconds(200))
        let store = InMemoryStateStore()
        let pipeline = ResponsePipeline(registry: registry, store: store, logger: .quiet)
        let batch = try [
            Events.response(id: "hang", request: "note-1"), Events.response(id: "after", request: "note-1"),
            Events.response(id: "other", request: "note-2"),
        ].map { try pipeline.decode(Events.message($0)) }

        // One lane: it takes note-1's chain first, so note-2 waits behind the hanging call unless a fresh lane takes it.
        let outcomes = await pipeline.handle(batch, concurrency: 1)
        await gate.fire()

        guard case .failed(let error, retryable: true) = outcomes[0] else {
            Issue.record("expected the hanging event to fail retryably, got \(outcomes[0])")
            return
        }
        #expect((error as? HandlerTimeout)?.handler == "hanging-once")
        #expect(outcomes[1].disposition == .updated)
        #expect(outcomes[2].disposition == .updated)
        // note-1's later event ran on the state its first event found: only "after" was committed.
        let stored = try await store.load(requestIdentifier: "note-1", source: "/tests", eventID: "hang")
        guard case .unprocessed(let record?) = stored else {
            Issue.record("expected note-1 stored and the hanging event unprocessed, got \(stored)")
            return
        }
        #expect(record.actions.map(\.identifier) == ["after"])
    }
}
