import BrokerHarness
import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import ResponderSQLite
import Testing

/// Both tiers hand their context messages to send to declared destinations; the messages are committed with the
/// state in the inbox entry and republished as stored, never made again, when the input comes back.
@Suite struct OutboxTests {
    static let replies = MessageDestination(name: "replies", exchange: "app.replies", routingKey: "reply", queue: "app.replies")

    /// Sends the response's action name to `destination` and answers `option`.
    struct SendingExtension: NotificationContentExtension {
        struct State: Codable, Sendable, Hashable {}
        var name = "sending-extension"
        var categoryIdentifiers: Set<String> = ["photo-category"]
        var initialState: State { State() }
        var destination = OutboxTests.replies
        var option = ResponseOption.doNotDismiss
        var journal = Journal<String>()

        func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<State>) async throws -> ResponseOption {
            journal.append(context.eventID)
            context.send(Array("extension:\(response.actionIdentifier.rawValue)".utf8), to: destination, contentType: "text/plain")
            return option
        }
    }

    /// Reads the current actions, keeps the first, dismisses the notification and sends how many actions it saw.
    struct SendingDelegate: UserNotificationCenterDelegate {
        var journal = Journal<[String]>()
        var failure: (any Error)?

        func didReceive(_ response: NotificationResponse, context: inout DelegateContext) async throws {
            journal.append(context.notificationActions.map(\.identifier))
            context.send(Array("delegate:\(context.notificationActions.count)".utf8), to: OutboxTests.replies, type: "app.reply.v1")
            context.setNotificationActions(Array(context.notificationActions.prefix(1)))
            context.dismissNotification()
            if let failure { throw failure }
        }
    }

    private func registry(
        extension handler: SendingExtension? = nil, delegate: SendingDelegate = SendingDelegate()
    ) throws -> HandlerRegistry {
        var registry = try Fixtures.registry(extension: nil, delegate: nil)
        try registry.declare(Self.replies)
        if let handler { try registry.register(handler) }
        registry.setDelegate(delegate)
        return registry
    }

    private func pipeline(_ registry: HandlerRegistry, store: any StateStore = InMemoryStateStore()) -> ResponsePipeline {
        ResponsePipeline(registry: registry, store: store, logger: .quiet)
    }

    @Test func anExtensionsMessageGoesToItsDeclaredDestinationLabelledByItsInput() async throws {
        let pipeline = pipeline(try registry(extension: SendingExtension()))
        let outcome = await pipeline.process(Events.message(Events.response(id: "input-7")))
        #expect(outcome.disposition == .updated)
        let message = try #require(outcome.outputs.first)
        #expect(outcome.outputs.count == 1)
        #expect(message.exchange == "app.replies" && message.routingKey == "reply")
        #expect(message.body == Array("extension:like-action".utf8))
        #expect(
            message.properties
                == MessageProperties(
                    contentType: "text/plain", messageID: "input-7/sent-1", correlationID: "input-7", appID: "responder",
                    timestamp: UInt64(Events.start.timeIntervalSince1970), deliveryMode: .persistent))
    }

    @Test func theAppTierReadsTheActionsSetsThemDismissesAndSendsInOneDefinedOrder() async throws {
        let delegate = SendingDelegate()
        let outcome = await pipeline(try registry(delegate: delegate))
            .process(Events.message(Events.response(id: "open-1", category: "photo-category", action: .default)))
        #expect(delegate.journal.entries == [["like-action", "share-action", "reply-action"]])
        #expect(
            outcome.outputs.map(\.properties.messageID)
                == ["open-1/actions-updated", "open-1/dismissed", "open-1/sent-1"])
        let update = try outcome.outputs[0].update
        #expect(update.data.actions == [Fixtures.like] && update.data.responseOption == .dismiss && update.data.version == 1)
        #expect(try EventCodec.decodeDeviceCommandEvent(outcome.outputs[1].body, as: Dismissal.self).data.version == 1)
        #expect(outcome.outputs[2].body == Array("delegate:3".utf8) && outcome.outputs[2].properties.type == "app.reply.v1")
    }

    @Test func aForwardedResponseSendsTheExtensionsMessagesThenTheDelegatesNumberedInOrder() async throws {
        let delegate = SendingDelegate()
        let outcome = await pipeline(
            try registry(extension: SendingExtension(option: .dismissAndForwardAction), delegate: delegate)
        ).process(Events.message(Events.response(id: "reply-1")))
        #expect(
            outcome.outputs.map(\.properties.messageID)
                == ["reply-1/actions-updated", "reply-1/dismissed", "reply-1/sent-1", "reply-1/sent-2"])
        #expect(outcome.outputs[2].body == Array("extension:like-action".utf8))
        #expect(outcome.outputs[3].body == Array("delegate:3".utf8))
        #expect(try outcome.outputs[0].update.data.responseOption == .dismissAndForwardAction)
    }

    @Test(arguments: [
        MessageDestination(name: "replies", exchange: "app.replies", routingKey: "taken-from-input", queue: "app.replies"),
        MessageDestination(name: "elsewhere", exchange: "app.replies", routingKey: "reply"),
    ])
    func aDestinationTheRegistrationDoesNotDeclareFailsTheResponsePermanently(destination: MessageDestination) async throws {
        let store = InMemoryStateStore()
        let outcome = await pipeline(try registry(extension: SendingExtension(destination: destination)), store: store)
            .process(Events.message(Events.response(id: "e1")))
        #expect(outcome.isRetryableFailure == false)
        #expect(await store.notification("note-1") == nil)
    }

    @Test func aHandlerThatThrowsAfterSendingSendsNothingAndCommitsNothing() async throws {
        let store = InMemoryStateStore()
        let outcome = await pipeline(try registry(delegate: SendingDelegate(failure: Boom())), store: store)
            .process(Events.message(Events.response(id: "open-1", action: .default)))
        #expect(outcome.isRetryableFailure == true && outcome.outputs.isEmpty)
        #expect(await store.notification("note-1") == nil)
    }

    @Test func twoDestinationsOfOneNameAreRefused() throws {
        var registry = HandlerRegistry()
        try registry.declare(Self.replies)
        #expect(throws: RegistrationError.duplicateDestination("replies")) {
            try registry.declare(MessageDestination(name: "replies", exchange: "other", routingKey: "other"))
        }
    }

    /// The message is committed with the state in SQLite: a worker that stopped after the commit and before the
    /// publish finds it in the inbox on the input's redelivery and publishes the same bytes, running no handler.
    @Test func aRedeliveryAfterARestartRepublishesTheStoredMessageWithoutRunningTheHandler() async throws {
        let path = try Paths.temporaryFolder().appendingPathComponent("state.sqlite").path
        let handler = SendingExtension()
        let first = await pipeline(try registry(extension: handler), store: try SQLiteStateStore(path: path))
            .process(Events.message(Events.response(id: "e1")))
        let restarted = pipeline(try registry(extension: handler), store: try SQLiteStateStore(path: path))
        let again = await restarted.process(Events.message(Events.response(id: "e1"), redelivered: true))
        #expect(again.disposition == .deduplicated)
        #expect(again.outputs == first.outputs && first.outputs.count == 1)
        #expect(handler.journal.entries == ["e1"])
    }
}
