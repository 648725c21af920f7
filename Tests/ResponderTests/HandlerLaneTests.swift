import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// Handlers run inline in a few lanes per batch, each lane taking one notification's events after another: a call past
/// its limit must hand the rest of its lane's work to a fresh lane, so neither its notification's later events nor the
/// other notifications queued behind it wait for a handler that ignores its cancellation.
@Suite(.timeLimit(.minutes(1)))
struct HandlerLaneTests {
    /// Hangs on the event `hang` until `gate` opens, whether cancelled or not; sets a button named after any other event.
    struct HangingOnce: NotificationContentExtension {
        let name = "hanging-once"
        let categoryIdentifiers: Set<String> = ["photo-category"]
        let initialState = 0
        let gate: Signal

        func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<Int>) async throws -> ResponseOption {
            if context.eventID == "hang" { await gate.wait() }
            context.state += 1
            context.setNotificationActions([NotificationAction(identifier: context.eventID, title: "Seen")])
            return .doNotDismiss
        }
    }

    @Test func aCallPastItsLimitLeavesItsLanesOtherWorkToAFreshLane() async throws {
        let gate = Signal()
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(HangingOnce(gate: gate), timeout: .milliseconds(200))
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
