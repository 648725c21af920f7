import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import StoreHarness
import Testing

/// A request added again under an identifier replaces its notification: a response to the new one (delivered later)
/// starts from fresh state, and a response to the old one arriving after is stale.
@Suite struct ReplacementTests {
    /// The buttons tell how many taps the extension's state holds.
    let handler = TestExtension(actionSets: { state in [[NotificationAction(identifier: "taps-\(state.taps)", title: "")]] })
    let delegate = TestDelegate()
    let first = Events.start.addingTimeInterval(-600)
    let later = Events.start.addingTimeInterval(-60)

    private func pipeline(_ kind: StoreKind, _ directory: TemporaryDirectory) async throws -> ResponsePipeline {
        ResponsePipeline(
            registry: try Fixtures.registry(extension: handler, delegate: delegate),
            store: try await kind.make(in: directory), logger: .quiet)
    }

    private func response(_ id: String, delivered: Date, category: String = "photo-category") -> InboundMessage {
        Events.message(Events.response(id: id, category: category, delivered: delivered))
    }

    @Test(arguments: StoreKind.allCases)
    func aLaterNotificationStartsFromFreshStateUnderItsCategory(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try await pipeline(kind, directory)
        _ = await pipeline.process(response("e1", delivered: first))
        _ = await pipeline.process(response("e2", delivered: first))
        #expect(try await pipeline.store.notification("note-1")?.actions.map(\.identifier) == ["taps-2"])

        let replaced = await pipeline.process(response("e3", delivered: later))
        #expect(replaced.disposition == .updated)
        let update = try EventCodec.decodeActionSetUpdateEvent(try #require(replaced.outputs.first).body)
        #expect(update.data.actions.map(\.identifier) == ["taps-1"])
        // Above every earlier output's version, though the state started afresh.
        #expect(update.data.version == 3)
        let stored = try #require(try await pipeline.store.notification("note-1"))
        #expect(stored.handlerStates[handler.name].map { String(decoding: $0, as: UTF8.self) } == #"{"taps":1}"#)
        #expect(stored.notificationDate == later)
    }

    /// A notification's category never changes: the stored delivery under another category is the producer's mistake,
    /// refused with a reason, so two such responses cannot reset the state in turn.
    @Test(arguments: StoreKind.allCases)
    func theSameDeliveryUnderAnotherCategoryIsRefusedAndLeavesTheState(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try await pipeline(kind, directory)
        _ = await pipeline.process(response("e1", delivered: first))
        let before = try await pipeline.store.notification("note-1")

        let recategorized = await pipeline.process(response("e2", delivered: first, category: "plain-category"))
        guard case .deadLetter(.categoryChanged, let detail) = recategorized else {
            Issue.record("expected a category-changed dead letter, got \(recategorized)")
            return
        }
        #expect(detail.contains(#"category "plain-category""#) && detail.contains(#"category "photo-category""#))
        let replacement = NotificationLifecycleChange.Replacement(date: first, categoryIdentifier: "plain-category")
        guard case .deadLetter(.categoryChanged, _) = await pipeline.process(
            Events.message(Events.lifecycle(id: "l1", change: .replaced(by: replacement))))
        else {
            Issue.record("expected the replacement by the same delivery under another category refused")
            return
        }
        #expect(try await pipeline.store.notification("note-1") == before)

        // The notification goes on from its state.
        let next = await pipeline.process(response("e3", delivered: first))
        let update = try EventCodec.decodeActionSetUpdateEvent(try #require(next.outputs.first).body)
        #expect(update.data.actions.map(\.identifier) == ["taps-2"])
        #expect(handler.journal.entries.map(\.eventID) == ["e1", "e3"])
    }

    @Test(arguments: StoreKind.allCases)
    func aResponseToAReplacedNotificationIsStaleWhileItsOwnEventsStillDedupe(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try await pipeline(kind, directory)
        let old = await pipeline.process(response("e1", delivered: first))
        _ = await pipeline.process(response("e2", delivered: later))
        let before = try await pipeline.store.notification("note-1")

        let stale = await pipeline.process(response("e3", delivered: first))
        #expect(stale.disposition == .stale)
        #expect(stale.outputs.isEmpty)
        #expect(handler.journal.entries.map(\.eventID) == ["e1", "e2"])
        #expect(try await pipeline.store.notification("note-1") == before)
        // So is a response for the app delegate.
        let appResponse = Events.message(Events.response(id: "e4", action: .default, delivered: first))
        #expect(await pipeline.process(appResponse).disposition == .stale)
        #expect(delegate.journal.entries.isEmpty)
        // The replaced notification's inbox entries stay valid: a redelivery gets its outputs again.
        let again = await pipeline.process(response("e1", delivered: first))
        #expect(again.disposition == .deduplicated)
        #expect(again.outputs == old.outputs)
    }

    /// Ordered mode hands a notification's events to one batch in order; each is judged on the state the one before
    /// it left.
    @Test(arguments: StoreKind.allCases)
    func aBatchJudgesEachResponseOnTheStateTheOneBeforeLeft(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try await pipeline(kind, directory)
        let batch = try [
            ("e1", first), ("e2", later), ("e3", first), ("e4", later),
        ].map { try pipeline.decode(response($0.0, delivered: $0.1)) }
        let outcomes = await pipeline.handle(batch)
        #expect(outcomes.map(\.disposition) == [.updated, .updated, .stale, .updated])
        let versions = try outcomes.flatMap(\.outputs).map { try EventCodec.decodeActionSetUpdateEvent($0.body).data.version }
        #expect(versions == [1, 2, 3])
        #expect(try await pipeline.store.notification("note-1")?.actions.map(\.identifier) == ["taps-2"])
    }

    /// A record stored before stores kept dates learns its date from its next response, and keeps its state.
    @Test(arguments: StoreKind.allCases)
    func anUndatedRecordLearnsItsDate(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try await pipeline(kind, directory)
        #expect(try await pipeline.store.change("note-1", event: "e0", at: .now) == .committed)
        _ = await pipeline.process(response("e1", delivered: later))
        let stored = try #require(try await pipeline.store.notification("note-1"))
        #expect(stored.notificationDate == later)
        #expect(stored.version == 2)
        #expect(stored.handlerStates["likes"] != nil)
        #expect(await pipeline.process(response("e2", delivered: first)).disposition == .stale)
    }
}
