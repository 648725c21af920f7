import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import StoreHarness
import Testing

/// Lifecycle events end or replace a notification: a removal leaves a tombstone and tells the push sender to remove
/// the notification at a raised version; a replacement starts fresh state. Both go through the inbox as responses do.
@Suite struct LifecycleTests {
    let handler = TestExtension(actionSets: { state in [[NotificationAction(identifier: "taps-\(state.taps)", title: "")]] })
    let delivered = Events.start.addingTimeInterval(-60)

    private func pipeline(_ kind: StoreKind, _ directory: TemporaryDirectory) async throws -> ResponsePipeline {
        ResponsePipeline(
            registry: try Fixtures.registry(extension: handler), store: try await kind.make(in: directory),
            logger: .quiet)
    }

    private func tap(_ id: String, request: String = "note-1", delivered: Date) -> InboundMessage {
        Events.message(Events.response(id: id, request: request, delivered: delivered))
    }

    private func removal(_ outcome: ResponseOutcome) throws -> NotificationRemovedEvent {
        #expect(outcome.outputs.count == 1)
        return try EventCodec.decodeDeviceCommandEvent(try #require(outcome.outputs.first).body, as: Removal.self)
    }

    @Test(arguments: StoreKind.allCases)
    func aRemovalDropsTheStateAndPublishesTheRemovalAboveEveryEarlierVersion(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try await pipeline(kind, directory)
        _ = await pipeline.process(tap("e1", delivered: delivered))
        _ = await pipeline.process(tap("e2", delivered: delivered))

        let removed = await pipeline.process(
            Events.message(Events.lifecycle(id: "l1", change: .removedDelivered, date: Events.start)))
        let event = try removal(removed)
        #expect(event.id == "l1/removed")
        #expect(event.data == DeviceCommand(requestIdentifier: "note-1", categoryIdentifier: "photo-category", causationId: "l1", version: 3))
        #expect(removed.outputs.first?.routingKey == "photo-category")
        #expect(removed.outputs.first?.properties.type == EventType.notificationRemoved)
        let tombstone = try #require(try await pipeline.store.notification("note-1"))
        #expect(tombstone.isRemoved)
        #expect(tombstone.actions.isEmpty)
        #expect(tombstone.handlerStates.isEmpty)

        // A late response to the removed notification changes nothing.
        #expect(await pipeline.process(tap("e3", delivered: delivered)).disposition == .stale)
        #expect(handler.journal.entries.map(\.eventID) == ["e1", "e2"])
        // A notification added again afterwards starts afresh, its versions above the removal's.
        let again = await pipeline.process(tap("e4", delivered: Events.start.addingTimeInterval(60)))
        let update = try EventCodec.decodeActionSetUpdateEvent(try #require(again.outputs.first).body)
        #expect(update.data.version == 4)
        #expect(update.data.actions.map(\.identifier) == ["taps-1"])
    }

    /// A notification the worker never stored has no category of its own: its removal goes out under the category
    /// the lifecycle event names, so a push sender's binding for that category sees it; without one, under none.
    @Test(arguments: StoreKind.allCases)
    func aRemovalOfANotificationNeverStoredIsRoutedByTheCategoryItNames(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try await pipeline(kind, directory)
        let named = await pipeline.process(
            Events.message(Events.lifecycle(id: "l1", request: "note-9", change: .removedDelivered, category: "photo-category")))
        #expect(try removal(named).data.categoryIdentifier == "photo-category")
        #expect(named.outputs.first?.routingKey == "photo-category")
        #expect(try await pipeline.store.notification("note-9")?.categoryIdentifier == "photo-category")

        let unnamed = await pipeline.process(Events.message(Events.lifecycle(id: "l2", request: "note-8", change: .removedPending)))
        #expect(try removal(unnamed).data.categoryIdentifier == "")
        #expect(unnamed.outputs.first?.routingKey == "")

        // A notification the worker stored keeps its own category, whatever the removal names.
        _ = await pipeline.process(tap("e1", delivered: delivered))
        let stored = await pipeline.process(
            Events.message(Events.lifecycle(id: "l3", change: .removedDelivered, category: "mail-category")))
        #expect(stored.outputs.first?.routingKey == "photo-category")
    }

    @Test(arguments: StoreKind.allCases)
    func aRedeliveredLifecycleEventRepublishesItsOutputWithoutRecomputingIt(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try await pipeline(kind, directory)
        let event = Events.lifecycle(id: "l1", change: .removedPending)
        let first = await pipeline.process(Events.message(event))
        // The notification moves on meanwhile: the redelivery still gets the first removal, byte for byte.
        _ = await pipeline.process(tap("e1", delivered: Events.start.addingTimeInterval(60)))
        let again = await pipeline.process(Events.message(event, redelivered: true))
        #expect(again.disposition == .deduplicated)
        #expect(again.outputs == first.outputs)
        #expect(try removal(first).data.version == 1)
        #expect(try await pipeline.store.notification("note-1")?.version == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func aReplacementStartsFreshStateAndMakesTheOldNotificationsResponsesStale(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try await pipeline(kind, directory)
        _ = await pipeline.process(tap("e1", delivered: delivered))
        _ = await pipeline.process(tap("e2", delivered: delivered))
        let newer = Events.start.addingTimeInterval(30)
        let replaced = await pipeline.process(
            Events.message(
                Events.lifecycle(
                    id: "l1",
                    change: .replaced(by: .init(date: newer, categoryIdentifier: "photo-category")))))
        #expect(replaced.disposition == .noUpdate)
        let fresh = try #require(try await pipeline.store.notification("note-1"))
        #expect(fresh.handlerStates.isEmpty)
        #expect(fresh.actions == [Fixtures.like, Fixtures.share, Fixtures.reply])
        #expect(fresh.version == 3)

        #expect(await pipeline.process(tap("e3", delivered: delivered)).disposition == .stale)
        let update = try EventCodec.decodeActionSetUpdateEvent(
            try #require(await pipeline.process(tap("e4", delivered: newer)).outputs.first).body)
        #expect(update.data.actions.map(\.identifier) == ["taps-1"])
        #expect(update.data.version == 4)
    }

    /// A record stored before stores kept dates is the notification a replacement replaces.
    @Test(arguments: StoreKind.allCases)
    func aReplacementOfAnUndatedRecordStartsFresh(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try await pipeline(kind, directory)
        #expect(try await pipeline.store.change("note-1", event: "e0", at: .now) == .committed)
        let replacement = NotificationLifecycleChange.Replacement(date: delivered, categoryIdentifier: "photo-category")
        _ = await pipeline.process(Events.message(Events.lifecycle(id: "l1", change: .replaced(by: replacement))))
        let fresh = try #require(try await pipeline.store.notification("note-1"))
        #expect(fresh.handlerStates.isEmpty)
        #expect(fresh.notificationDate == delivered)
        #expect(fresh.version == 2)
    }

    /// A removal naming a delivery before the stored notification's removed the one that notification replaced.
    @Test(arguments: StoreKind.allCases)
    func aRemovalOfAnEarlierNotificationLeavesTheCurrentOne(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try await pipeline(kind, directory)
        _ = await pipeline.process(tap("e1", delivered: delivered))
        let before = try await pipeline.store.notification("note-1")
        let removal = await pipeline.process(
            Events.message(
                Events.lifecycle(id: "l1", change: .removedDelivered, delivered: delivered.addingTimeInterval(-1))))
        #expect(removal.disposition == .stale)
        #expect(try await pipeline.store.notification("note-1") == before)
    }

    /// A removal's date is the producer's clock, a delivery's the device's: a removal dated before the stored delivery
    /// (the device's clock ahead) still removes it, and one naming the stored delivery removes it whatever its date.
    @Test(arguments: StoreKind.allCases)
    func aRemovalIsNotJudgedByTheProducersClock(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try await pipeline(kind, directory)
        let early = delivered.addingTimeInterval(-120)
        _ = await pipeline.process(tap("e1", request: "note-1", delivered: delivered))
        _ = await pipeline.process(tap("e2", request: "note-2", delivered: delivered))

        let unnamed = await pipeline.process(Events.message(Events.lifecycle(id: "l1", change: .removedDelivered, date: early)))
        #expect(try removal(unnamed).data.version == 2)
        let named = await pipeline.process(
            Events.message(
                Events.lifecycle(id: "l2", request: "note-2", change: .removedDelivered, date: early, delivered: delivered)))
        #expect(try removal(named).data.version == 2)
        for request in ["note-1", "note-2"] {
            let tombstone = try #require(try await pipeline.store.notification(request))
            #expect(tombstone.isRemoved)
            #expect(tombstone.notificationDate == delivered)
            // A late tap on the removed notification changes nothing.
            #expect(await pipeline.process(tap("\(request)-late", request: request, delivered: delivered)).disposition == .stale)
        }
    }

    /// The removal of a notification never stored that names its delivery makes later responses to that delivery
    /// stale, however far the device's clock runs ahead of the producer's, and a response to a later one a replacement.
    @Test(arguments: StoreKind.allCases)
    func aRemovalNamingItsDeliveryJudgesTheResponsesAfterItByThatDelivery(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try await pipeline(kind, directory)
        let removed = await pipeline.process(
            Events.message(
                Events.lifecycle(id: "l1", change: .removedDelivered, date: delivered.addingTimeInterval(-300), delivered: delivered)))
        #expect(try removal(removed).data.version == 1)
        #expect(await pipeline.process(tap("e1", delivered: delivered)).disposition == .stale)
        #expect(await pipeline.process(tap("e2", delivered: delivered.addingTimeInterval(-1))).disposition == .stale)

        let later = await pipeline.process(tap("e3", delivered: delivered.addingTimeInterval(1)))
        let update = try EventCodec.decodeActionSetUpdateEvent(try #require(later.outputs.first).body)
        #expect(update.data.version == 2)
        #expect(handler.journal.entries.map(\.eventID) == ["e3"])
    }

    /// Without a named delivery, the removal of a delivered notification never stored wins over every response after
    /// it (the worker cannot tell a late tap on it from one on a notification added again); a pending one was never
    /// delivered, so a response after its removal is to a later delivery.
    @Test(arguments: StoreKind.allCases)
    func aRemovalOfANotificationNeverStoredWithoutItsDeliveryWinsUnlessItWasPending(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try await pipeline(kind, directory)
        let early = delivered.addingTimeInterval(-300)
        _ = await pipeline.process(Events.message(Events.lifecycle(id: "l1", change: .removedDelivered, date: early)))
        #expect(await pipeline.process(tap("e1", delivered: delivered)).disposition == .stale)
        #expect(await pipeline.process(tap("e2", delivered: delivered.addingTimeInterval(600))).disposition == .stale)

        _ = await pipeline.process(
            Events.message(Events.lifecycle(id: "l2", request: "note-2", change: .removedPending, date: early)))
        #expect(await pipeline.process(tap("e3", request: "note-2", delivered: delivered)).disposition == .updated)
        #expect(handler.journal.entries.map(\.eventID) == ["e3"])
    }

    /// Ordered mode hands a notification's responses and lifecycle events to one batch in order.
    @Test(arguments: StoreKind.allCases)
    func aBatchOrdersLifecycleEventsWithTheResponses(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try await pipeline(kind, directory)
        let batch = try [
            tap("e1", delivered: delivered),
            Events.message(Events.lifecycle(id: "l1", change: .removedDelivered)),
            tap("e2", delivered: delivered),
        ].map { try pipeline.decode($0) }
        let outcomes = await pipeline.handle(batch)
        #expect(outcomes.map(\.disposition) == [.updated, .updated, .stale])
        #expect(try removal(outcomes[1]).data.version == 2)
    }
}
