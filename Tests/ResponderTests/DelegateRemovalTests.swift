import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import StoreHarness
import Testing

/// The app delegate removes a notification (as `removeDeliveredNotifications` does in the app): the response publishes
/// a removal at a raised version instead of an update or a dismissal, the state becomes a tombstone, and a later
/// response to the removed notification is stale; a redelivery republishes the stored removal.
@Suite struct DelegateRemovalTests {
    /// Removes the notification on the "remove" action; on any other sets one button per tap so far.
    private struct Remover: UserNotificationCenterDelegate {
        func didReceive(_ response: NotificationResponse, context: inout DelegateContext) async throws {
            if response.actionIdentifier == .custom("remove-action") {
                context.setNotificationActions([Fixtures.like])
                context.dismissNotification()
                context.removeNotification()
            } else {
                context.setNotificationActions(context.notificationActions + [Fixtures.share])
            }
        }
    }

    private func pipeline(_ kind: StoreKind, _ directory: TemporaryDirectory) async throws -> ResponsePipeline {
        var registry = try Fixtures.registry(extension: nil, delegate: nil)
        registry.setDelegate(Remover())
        return ResponsePipeline(registry: registry, store: try await kind.make(in: directory), logger: .quiet)
    }

    @Test(arguments: StoreKind.allCases)
    func aRemovalByTheDelegateEndsTheNotification(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let pipeline = try await pipeline(kind, directory)
        let tapped = await pipeline.process(Events.message(Events.response(id: "e1", category: "plain-category")))
        #expect(tapped.disposition == .updated)

        let remove = Events.message(
            Events.response(id: "e2", category: "plain-category", action: .custom("remove-action")))
        let removed = await pipeline.process(remove)
        #expect(removed.disposition == .updated)
        #expect(removed.outputs.map(\.properties.type) == [EventType.notificationRemoved], "no update, no dismissal")
        let removal = try EventCodec.decodeDeviceCommandEvent(try #require(removed.outputs.first).body, as: Removal.self)
        #expect(removal.id == "e2/removed")
        #expect(
            removal.data
                == DeviceCommand(
                    requestIdentifier: "note-1", categoryIdentifier: "plain-category", causationId: "e2", version: 2))

        let stored = try #require(try await pipeline.store.notification("note-1"))
        #expect(stored.isRemoved && stored.actions.isEmpty && stored.handlerStates.isEmpty && stored.version == 2)

        let late = await pipeline.process(Events.message(Events.response(id: "e3", category: "plain-category")))
        #expect(late.disposition == .stale && late.outputs.isEmpty, "a response to the removed notification")

        let again = await pipeline.process(remove)
        #expect(again.disposition == .deduplicated)
        #expect(again.outputs.map(\.body) == removed.outputs.map(\.body), "the stored removal, republished")
    }
}
