import Foundation
import Logging
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// What an extension sees of its notification: current actions and its own state.
@Suite struct ExtensionContextTests {
    /// Records the actions it was shown and the state it found, then appends the share action.
    struct Observer: NotificationContentExtension {
        struct State: Codable, Sendable, Hashable {
            var seen: [String] = []
        }

        let name = "observer"
        let categoryIdentifiers: Set<String> = ["photo-category"]
        let initialState = State()
        let shown = Journal<[NotificationAction]>()

        func didReceive(
            _ response: NotificationResponse, context: inout ExtensionContext<State>
        ) async throws -> ResponseOption {
            shown.append(context.notificationActions)
            context.state.seen.append(context.eventID)
            context.setNotificationActions(context.notificationActions + [Fixtures.share])
            #expect(context.notificationActions.last == Fixtures.share)
            return .doNotDismiss
        }
    }

    @Test func theFirstResponseSeesTheCategoryActionsAndLaterOnesTheCurrentSet() async throws {
        let observer = Observer()
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(observer)
        let store = InMemoryStateStore()
        let pipeline = ResponsePipeline(registry: registry, store: store, logger: .quiet)
        _ = await pipeline.process(Events.message(Events.response(id: "e1")))
        _ = await pipeline.process(Events.message(Events.response(id: "e2")))
        let initial = [Fixtures.like, Fixtures.share, Fixtures.reply]
        #expect(observer.shown.entries == [initial, initial + [Fixtures.share]])
        let record = try #require(await store.notification("note-1"))
        #expect(record.actions == initial + [Fixtures.share, Fixtures.share])
        #expect(record.version == 2)
        let state = try EventCodec.decodeStored(Observer.State.self, from: #require(record.handlerStates["observer"]))
        #expect(state.seen == ["e1", "e2"])
    }

    @Test func eachNotificationHasItsOwnState() async throws {
        let handler = TestExtension(actionSets: { state in
            [[NotificationAction(identifier: "taps-\(state.taps)", title: "")]]
        })
        let pipeline = ResponsePipeline(
            registry: try Fixtures.registry(extension: handler), store: InMemoryStateStore(), logger: .quiet)
        var taps: [String] = []
        for (id, request) in [("e1", "a"), ("e2", "b"), ("e3", "a"), ("e4", "a"), ("e5", "b")] {
            let outcome = await pipeline.process(Events.message(Events.response(id: id, request: request)))
            taps.append(try #require(outcome.outputs.first).update.data.actions[0].identifier)
        }
        #expect(taps == ["taps-1", "taps-1", "taps-2", "taps-3", "taps-2"])
    }

    @Test func aStoredStateThatNoLongerDecodesIsAPermanentFailure() async throws {
        let store = InMemoryStateStore()
        let record = NotificationRecord(
            requestIdentifier: "note-1", categoryIdentifier: "photo-category", actions: [],
            handlerStates: ["test-extension": Array(#"{"taps":"many"}"#.utf8)])
        _ = try await store.commit(
            StateCommit(
                inboxEntry: InboxEntry(source: "/tests", eventID: "seed", requestIdentifier: "note-1", outputs: [], processedAt: .now),
                notification: record))
        let pipeline = ResponsePipeline(registry: try Fixtures.registry(), store: store, logger: .quiet)
        let outcome = await pipeline.process(Events.message(Events.response(id: "e1")))
        #expect(outcome.isRetryableFailure == false)
    }
}
