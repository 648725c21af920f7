import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import StoreHarness
import Testing

/// A handler schedules a follow-up through its context; it is committed with the notification's state, carried by a
/// message that only names it, and handled by the same handler when due, once, on the state of that time, unless its
/// notification was replaced or removed since. Checked on every store.
@Suite struct FollowUpTests {
    /// Counts taps; the first schedules `expire-share` after `delay`, which takes the Share button away.
    struct ExpiringShare: NotificationContentExtension {
        struct State: Codable, Sendable, Hashable { var taps = 0 }
        var name = "expiring-share"
        var categoryIdentifiers: Set<String> = ["photo-category"]
        var initialState: State { State() }
        var delay = Duration.zero
        var journal = Journal<String>()

        func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<State>) async throws -> ResponseOption {
            context.state.taps += 1
            if context.state.taps == 1 { context.scheduleFollowUp("expire-share", after: delay, payload: Array("p".utf8)) }
            return .doNotDismiss
        }

        func didReceiveFollowUp(_ followUp: FollowUp, context: inout ExtensionContext<State>) async throws {
            journal.append("\(followUp.name) after \(context.state.taps) taps, \(String(decoding: followUp.payload, as: UTF8.self))")
            context.setNotificationActions(context.notificationActions.filter { $0.identifier != Fixtures.share.identifier })
        }
    }

    /// The app tier: a default action schedules `remove` at a date already past; the follow-up removes the notification.
    struct RemovingDelegate: UserNotificationCenterDelegate {
        var journal = Journal<String>()

        func didReceive(_ response: NotificationResponse, context: inout DelegateContext) async throws {
            context.scheduleFollowUp("remove", at: Date(timeIntervalSinceNow: -1))
        }

        func didReceiveFollowUp(_ followUp: FollowUp, context: inout DelegateContext) async throws {
            journal.append(followUp.name)
            context.removeNotification()
        }
    }

    private func pipeline(
        _ handler: ExpiringShare = ExpiringShare(), delegate: RemovingDelegate? = nil, store: any StateStore = InMemoryStateStore()
    ) throws -> ResponsePipeline {
        var registry = try Fixtures.registry(extension: nil, delegate: nil)
        try registry.register(handler)
        if let delegate { registry.setDelegate(delegate) }
        return ResponsePipeline(registry: registry, store: store, logger: .quiet)
    }

    /// The follow-up message among `outcome`'s outputs, as the input exchange delivers it once its delay queue
    /// dead-letters it there.
    private func followUpMessage(in outcome: ResponseOutcome) throws -> InboundMessage {
        let output = try #require(outcome.outputs.first { $0.properties.type == "responder.follow-up.v1" })
        return InboundMessage(
            body: output.body, properties: output.properties, exchange: "notifications.responses",
            routingKey: output.routingKey)
    }

    @Test(arguments: StoreKind.allCases)
    func aDueFollowUpReachesItsHandlerOnceWithTheStateOfThatTime(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let handler = ExpiringShare()
        let pipeline = try pipeline(handler, store: try await kind.make(in: directory))
        let scheduled = await pipeline.process(Events.message(Events.response(id: "r1")))
        #expect(scheduled.disposition == .updated)
        let message = try followUpMessage(in: scheduled)
        #expect(message.routingKey == "note-1", "routed by its notification, so ordered mode keeps it on its shard")
        #expect(scheduled.outputs.last?.exchange == "responder.responses.follow-up.1000ms", "the shortest delay")
        #expect(message.properties.messageId == "r1/follow-up-1")
        #expect(await pipeline.process(Events.message(Events.response(id: "r2"))).disposition == .noUpdate)

        let handled = await pipeline.process(message)
        #expect(handled.disposition == .updated)
        #expect(handler.journal.entries == ["expire-share after 2 taps, p"])
        let update = try EventCodec.decodeActionSetUpdateEvent(try #require(handled.outputs.first).body)
        #expect(update.data.actions == [Fixtures.like, Fixtures.reply])
        #expect(update.data.causationId == "r1/follow-up-1")

        let again = await pipeline.process(message)
        #expect(again.disposition == .deduplicated)
        #expect(again.outputs == handled.outputs, "its outputs, republished as stored")
        #expect(handler.journal.entries.count == 1, "handled once")
    }

    @Test func aFollowUpBackBeforeItIsDueGoesDownTheLadderAgain() async throws {
        let handler = ExpiringShare(delay: .seconds(3600))
        let pipeline = try pipeline(handler)
        let scheduled = await pipeline.process(Events.message(Events.response(id: "r1")))
        #expect(scheduled.outputs.last?.exchange == "responder.responses.follow-up.3600000ms")
        let early = await pipeline.process(try followUpMessage(in: scheduled))
        #expect(early.disposition == .deferred)
        #expect(early.outputs.map(\.exchange) == ["responder.responses.follow-up.600000ms"], "less than an hour is left")
        #expect(early.outputs.first?.body == scheduled.outputs.last?.body)
        #expect(handler.journal.entries.isEmpty)
    }

    @Test func theLadderTakesTheLongestDelayNotPastTheTimeLeftElseTheShortest() {
        let ladder = FollowUpLadder(inputQueue: "in", milliseconds: [60_000, 1_000, 10_000])
        #expect(ladder.steps.map(\.milliseconds) == [1_000, 10_000, 60_000])
        #expect(ladder.step(for: .seconds(30)).exchange == "in.follow-up.10000ms")
        #expect(ladder.step(for: .seconds(10)).milliseconds == 10_000)
        #expect(ladder.step(for: .milliseconds(9_999)).milliseconds == 1_000)
        #expect(ladder.step(for: .seconds(7200)).milliseconds == 60_000)
        #expect(ladder.step(for: .milliseconds(300)).milliseconds == 1_000, "late by less than the shortest, never early")
    }

    @Test(arguments: StoreKind.allCases)
    func aFollowUpOfANotificationReplacedOrRemovedSinceIsIgnored(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let handler = ExpiringShare()
        let pipeline = try pipeline(handler, store: try await kind.make(in: directory))
        let first = try followUpMessage(in: await pipeline.process(Events.message(Events.response(id: "r1"))))
        let replacement = Events.response(id: "r2", delivered: Events.start)
        let second = try followUpMessage(in: await pipeline.process(Events.message(replacement)))

        #expect(await pipeline.process(first).disposition == .ignored, "scheduled for the notification replaced since")
        _ = await pipeline.process(Events.message(Events.lifecycle(id: "l1", change: .removedDelivered)))
        #expect(await pipeline.process(second).disposition == .ignored, "its notification was removed")
        #expect(handler.journal.entries.isEmpty)
    }

    @Test func aForgedFollowUpDoesNothing() async throws {
        let handler = ExpiringShare(delay: .seconds(3600))
        let pipeline = try pipeline(handler)
        let genuine = try followUpMessage(in: await pipeline.process(Events.message(Events.response(id: "r1"))))
        let forge = { (id: String, request: String) in
            var message = genuine
            message.body = Array(#"{"followUp":"\#(id)","requestIdentifier":"\#(request)"}"#.utf8)
            return message
        }
        #expect(await pipeline.process(forge("r1/follow-up-1", "note-2")).disposition == .ignored, "not its notification")
        #expect(await pipeline.process(forge("r9/follow-up-1", "note-1")).disposition == .ignored, "never scheduled")
        #expect(await pipeline.process(forge("r1/follow-up-1", "note-1")).disposition == .deferred, "not due: the stored date rules")
        var garbage = genuine
        garbage.body = Array("{}".utf8)
        #expect(await pipeline.process(garbage).deadLetterReason != nil)
        #expect(handler.journal.entries.isEmpty)

        // An event under the follow-ups' inbox source could take a follow-up's inbox entry, and so cancel it.
        var claiming = Events.response(id: "r1/follow-up-1")
        claiming.source = FollowUp.inboxSource
        #expect(await pipeline.process(Events.message(claiming)).deadLetterReason == .invalidField)
    }

    @Test func theAppTiersFollowUpMayRemoveItsNotification() async throws {
        let delegate = RemovingDelegate()
        let pipeline = try pipeline(delegate: delegate)
        let scheduled = await pipeline.process(
            Events.message(Events.response(id: "r1", category: "plain-category", action: .default)))
        let handled = await pipeline.process(try followUpMessage(in: scheduled))
        #expect(delegate.journal.entries == ["remove"])
        #expect(try EventCodec.decodeRemovedEvent(try #require(handled.outputs.first).body).data.causationId == "r1/follow-up-1")
        #expect(
            await pipeline.process(Events.message(Events.response(id: "r2", category: "plain-category", action: .default)))
                .disposition == .stale)
    }

    @Test func noExtensionMayTakeTheNameTheFollowUpsAreStoredUnder() throws {
        var registry = try Fixtures.registry(extension: nil, delegate: nil)
        #expect(throws: RegistrationError.reservedExtensionName("responder.follow-ups")) {
            try registry.register(ExpiringShare(name: "responder.follow-ups"))
        }
    }
}
