import BrokerHarness
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

    /// The id of the first follow-up scheduled while handling the event `r1` of `/tests`.
    private let r1FollowUp = FollowUp.id(source: "/tests", causedBy: "r1", number: 1)

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
            exchange: "notifications.responses", routingKey: output.routingKey, body: output.body,
            properties: output.properties)
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
        #expect(message.properties.messageID == r1FollowUp)
        #expect(await pipeline.process(Events.message(Events.response(id: "r2"))).disposition == .noUpdate)

        let handled = await pipeline.process(message)
        #expect(handled.disposition == .updated)
        #expect(handler.journal.entries == ["expire-share after 2 taps, p"])
        let update = try EventCodec.decodeActionSetUpdateEvent(try #require(handled.outputs.first).body)
        #expect(update.data.actions == [Fixtures.like, Fixtures.reply])
        #expect(update.data.causationId == r1FollowUp)

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
        #expect(await pipeline.process(forge(r1FollowUp, "note-2")).disposition == .ignored, "not its notification")
        #expect(await pipeline.process(forge(FollowUp.id(source: "/tests", causedBy: "r9", number: 1), "note-1")).disposition == .ignored, "never scheduled")
        #expect(await pipeline.process(forge(r1FollowUp, "note-1")).disposition == .deferred, "not due: the stored date rules")
        var garbage = genuine
        garbage.body = Array("{}".utf8)
        #expect(await pipeline.process(garbage).deadLetterReason != nil)
        #expect(handler.journal.entries.isEmpty)

        // An event under the follow-ups' inbox source could take a follow-up's inbox entry, and so cancel it.
        var claiming = Events.response(id: r1FollowUp)
        claiming.source = FollowUp.inboxSource
        #expect(await pipeline.process(Events.message(claiming)).deadLetterReason == .invalidField)
    }

    /// The inbox holds a handled follow-up's id under its notification. A copy forged under another notification,
    /// which the worker never sends, is ignored as every forged follow-up is, not dead-lettered as an event whose
    /// producer reused an id (in CI a forge sent before the genuine one came due reached the worker after it).
    @Test(arguments: StoreKind.allCases)
    func aForgedCopyOfAHandledFollowUpUnderAnotherNotificationIsIgnored(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let handler = ExpiringShare()
        let pipeline = try pipeline(handler, store: try await kind.make(in: directory))
        let genuine = try followUpMessage(in: await pipeline.process(Events.message(Events.response(id: "r1"))))
        #expect(await pipeline.process(genuine).disposition == .updated)
        var forged = genuine
        forged.body = EventCodec.encode(["followUp": r1FollowUp, "requestIdentifier": "note-2"])
        forged.routingKey = "note-2"

        let outcome = await pipeline.process(forged)
        #expect(outcome.disposition == .ignored, "\(outcome)")
        #expect(handler.journal.entries.count == 1)
    }

    /// Follow-up ids of the earlier form (`<event id>/follow-up-<n>`) were the same for two sources' events of one
    /// id, so two notifications' genuine follow-ups could share one: the second is dead-lettered as an id reused, as
    /// before, where a copy of a current id is ignored.
    @Test func aFollowUpOfAnEarlierFormIdHandledForAnotherNotificationIsDeadLettered() async throws {
        let store = InMemoryStateStore()
        let pipeline = try pipeline(store: store)
        let genuine = try followUpMessage(in: await pipeline.process(Events.message(Events.response(id: "r1"))))
        for (id, expected) in [("r1/follow-up-1", DeadLetterReason.eventIDReused), (r1FollowUp, nil)] {
            let handled = InboxEntry(
                source: FollowUp.inboxSource, eventID: id, requestIdentifier: "note-9", outputs: [], processedAt: .now)
            _ = try await store.commit(StateCommit(inboxEntry: handled, notification: nil))
            var message = genuine
            message.body = EventCodec.encode(["followUp": id, "requestIdentifier": "note-1"])
            let outcome = await pipeline.process(message)
            #expect(outcome.deadLetterReason == expected, "\(id)")
            if expected == nil { #expect(outcome.disposition == .ignored) }
        }
    }

    /// A follow-up message's identifiers follow the contract's rules, as an event's: a U+0000 in the request
    /// identifier would make PostgreSQL refuse the load of the whole batch. One routed under another key than its
    /// notification's is not one the worker sent.
    @Test(arguments: StoreKind.allCases)
    func aFollowUpMessageWithAnIdentifierTheContractRefusesIsDeadLetteredAlone(kind: StoreKind) async throws {
        let directory = try TemporaryDirectory()
        let handler = ExpiringShare()
        let pipeline = try pipeline(handler, store: try await kind.make(in: directory))
        let genuine = try followUpMessage(in: await pipeline.process(Events.message(Events.response(id: "r1"))))
        let forge = { (id: String, request: String) in
            var message = genuine
            message.body = EventCodec.encode(["followUp": id, "requestIdentifier": request])
            message.routingKey = request
            return message
        }
        for forged in [forge(r1FollowUp, "note\u{0}-1"), forge("r1\u{0}", "note-1"), forge("", "note-1"), forge(r1FollowUp, "")] {
            #expect(await pipeline.process(forged).deadLetterReason == .invalidField)
        }
        var rerouted = genuine
        rerouted.routingKey = "note-2"
        #expect(await pipeline.process(rerouted).disposition == .ignored, "not routed by its notification")
        #expect(handler.journal.entries.isEmpty)
        #expect(await pipeline.process(genuine).disposition == .updated)
    }

    /// Schedules a hop, due at once, on each response and on each follow-up until it has had `hops` of them.
    struct Relay: NotificationContentExtension {
        var name = "relay"
        var categoryIdentifiers: Set<String> = ["photo-category"]
        var initialState: Int { 0 }
        var hops = 20
        var journal = Journal<String>()

        func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<Int>) async throws -> ResponseOption {
            context.scheduleFollowUp("hop", at: Date(timeIntervalSinceNow: -1))
            return .doNotDismiss
        }

        func didReceiveFollowUp(_ followUp: FollowUp, context: inout ExtensionContext<Int>) async throws {
            journal.append(followUp.id)
            if journal.entries.count < hops { context.scheduleFollowUp("hop", at: Date(timeIntervalSinceNow: -1)) }
        }
    }

    /// Handles the follow-up `message` once it is due: a follow-up due now may come back a little before by the
    /// clock (its stored due date is rounded), and then goes down the ladder again, as the broker would bring it.
    private func handleWhenDue(_ message: InboundMessage, by pipeline: ResponsePipeline) async throws -> ResponseOutcome {
        let deadline = Date().addingTimeInterval(5)
        var outcome = await pipeline.process(message)
        while outcome.disposition == .deferred, Date() < deadline {
            outcome = await pipeline.process(try followUpMessage(in: outcome))
        }
        return outcome
    }

    /// A follow-up's id has one length however many follow-ups led to it (a message id holds 255 bytes), and the
    /// same event id of two sources gives two ids, so each follow-up is handled.
    @Test func followUpIdsKeepOneLengthAndTellSourcesApart() async throws {
        let relay = Relay()
        var registry = try Fixtures.registry(extension: nil, delegate: nil)
        try registry.register(relay)
        let pipeline = ResponsePipeline(registry: registry, store: InMemoryStateStore(), logger: .quiet)
        var outcome = await pipeline.process(Events.message(Events.response(id: "r1")))
        for _ in 1...relay.hops { outcome = try await handleWhenDue(followUpMessage(in: outcome), by: pipeline) }
        #expect(relay.journal.entries.count == relay.hops)
        #expect(Set(relay.journal.entries).count == relay.hops)
        #expect(Set(relay.journal.entries.map(\.utf8.count)) == [r1FollowUp.utf8.count])

        var other = Events.response(id: "r2")
        other.source = "/other"
        let fromTests = try followUpMessage(in: await pipeline.process(Events.message(Events.response(id: "r2"))))
        let fromOther = try followUpMessage(in: await pipeline.process(Events.message(other)))
        #expect(fromTests.properties.messageID != fromOther.properties.messageID)
        _ = try await handleWhenDue(fromTests, by: pipeline)
        _ = try await handleWhenDue(fromOther, by: pipeline)
        #expect(relay.journal.entries.count == relay.hops + 2, "both handled")
    }

    /// On its first tap schedules a follow-up after each of `delays` and at each of `dates`.
    struct Scheduler: NotificationContentExtension {
        var name = "scheduler"
        var categoryIdentifiers: Set<String> = ["photo-category"]
        var initialState: Int { 0 }
        var delays: [Duration] = []
        var dates: [Date] = []

        func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<Int>) async throws -> ResponseOption {
            context.state += 1
            guard context.state == 1 else { return .doNotDismiss }
            for delay in delays { context.scheduleFollowUp("after", after: delay) }
            for date in dates { context.scheduleFollowUp("at", at: date) }
            return .doNotDismiss
        }

        func didReceiveFollowUp(_ followUp: FollowUp, context: inout ExtensionContext<Int>) async throws {}
    }

    private func pipeline(_ scheduler: Scheduler, store: any StateStore = InMemoryStateStore()) throws -> ResponsePipeline {
        var registry = try Fixtures.registry(extension: nil, delegate: nil)
        try registry.register(scheduler)
        return ResponsePipeline(registry: registry, store: store, logger: .quiet)
    }

    /// A due date far ahead counts as a year from now, so the state can hold it again: the follow-ups stay pending
    /// through the notification's next change, and their messages take the longest delay queue.
    @Test func farDueDatesCountAsAYearFromNow() async throws {
        let far = [Date(timeIntervalSince1970: 1e12), .distantFuture, Date(timeIntervalSinceReferenceDate: 1e300)]
        let pipeline = try pipeline(Scheduler(delays: [.seconds(Int64.max), .seconds(400 * 86_400)], dates: far))
        let scheduled = await pipeline.process(Events.message(Events.response(id: "r1")))
        let messages = scheduled.outputs.filter { $0.properties.type == "responder.follow-up.v1" }
        #expect(messages.count == 5)
        #expect(messages.allSatisfy { $0.exchange == "responder.responses.follow-up.3600000ms" })
        #expect(await pipeline.process(Events.message(Events.response(id: "r2"))).disposition == .noUpdate)
        for message in messages {
            let back = InboundMessage(
                exchange: "notifications.responses", routingKey: message.routingKey, body: message.body,
                properties: message.properties)
            #expect(await pipeline.process(back).disposition == .deferred, "still pending after the next change")
        }
    }

    /// A due date that is not a finite time is a handler's mistake: the response fails permanently, with a reason.
    @Test func aDueDateThatIsNotAFiniteTimeFailsTheResponsePermanently() async throws {
        for date in [Date(timeIntervalSinceReferenceDate: .nan), Date(timeIntervalSinceReferenceDate: .infinity)] {
            let pipeline = try pipeline(Scheduler(dates: [date]))
            let outcome = await pipeline.process(Events.message(Events.response(id: "r1")))
            #expect(outcome.isRetryableFailure == false)
        }
    }

    /// Pending follow-ups whose stored bytes no longer decode fail what would read them, permanently, rather than
    /// read as none and be written back as none.
    @Test func pendingFollowUpsThatDoNotDecodeFailTheInputPermanently() async throws {
        let store = InMemoryStateStore()
        let handler = ExpiringShare(delay: .seconds(3600))
        let pipeline = try pipeline(handler, store: store)
        let genuine = try followUpMessage(in: await pipeline.process(Events.message(Events.response(id: "r1"))))
        let load = StateLoad(requestIdentifier: "note-1", source: "/tests", eventID: "corrupt")
        guard case .unprocessed(var record?) = try await store.load([load])[0].get() else {
            Issue.record("the notification is not stored")
            return
        }
        record.handlerStates["responder.follow-ups"] = Array("[{}]".utf8)
        let entry = InboxEntry(source: "/tests", eventID: "corrupt", requestIdentifier: "note-1", outputs: [], processedAt: .now)
        #expect(try await store.commit(StateCommit(inboxEntry: entry, notification: record)) == .committed)

        #expect(await pipeline.process(genuine).isRetryableFailure == false)
    }

    /// Schedules a follow-up due at once on the first tap; on the second, waits for `gate` whatever its cancellation
    /// says, so its call is cut off and left running.
    struct Stuck: NotificationContentExtension {
        var name = "stuck"
        var categoryIdentifiers: Set<String> = ["photo-category"]
        var initialState: Int { 0 }
        let gate = Signal()
        let followUpCalls = CallCount()

        func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<Int>) async throws -> ResponseOption {
            context.state += 1
            if context.state == 1 {
                context.scheduleFollowUp("later", at: Date(timeIntervalSinceNow: -1))
            } else {
                await gate.wait()
            }
            return .doNotDismiss
        }

        func didReceiveFollowUp(_ followUp: FollowUp, context: inout ExtensionContext<Int>) async throws {
            followUpCalls.increment()
        }
    }

    /// Follow-up calls are bound by the limit of calls cut off that still run, as responses' are.
    @Test(.timeLimit(.minutes(10)))
    func aFollowUpAtTheLimitOfCallsCutOffFindsTheDependencyUnavailable() async throws {
        let stuck = Stuck()
        var registry = try Fixtures.registry(extension: nil, delegate: nil)
        try registry.register(stuck, timeout: .milliseconds(100))
        var configuration = PipelineConfiguration()
        configuration.maxAbandonedCalls = 1
        let pipeline = ResponsePipeline(registry: registry, store: InMemoryStateStore(), configuration: configuration, logger: .quiet)
        let followUp = try followUpMessage(in: await pipeline.process(Events.message(Events.response(id: "r1"))))
        #expect(await pipeline.process(Events.message(Events.response(id: "r2"))).isRetryableFailure == true)
        #expect(pipeline.isDependencyUnavailable, "the call cut off still runs")

        let outcome = await pipeline.process(followUp)
        #expect(outcome.unavailability != nil, "no call at the limit: \(outcome)")
        #expect(stuck.followUpCalls.value == 0)

        await stuck.gate.fire()
        let deadline = ContinuousClock.now + hangGuard
        while pipeline.isDependencyUnavailable, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        _ = try await handleWhenDue(followUp, by: pipeline)
        #expect(stuck.followUpCalls.value == 1, "once the call cut off ended, the follow-up runs")
    }

    /// Schedules `count` follow-ups due in an hour, each with `payloadBytes` bytes, on every tap.
    struct Flood: NotificationContentExtension {
        var name = "flood"
        var categoryIdentifiers: Set<String> = ["photo-category"]
        var initialState: Int { 0 }
        var count: Int
        var payloadBytes = 0

        func didReceive(_ response: NotificationResponse, context: inout ExtensionContext<Int>) async throws -> ResponseOption {
            for _ in 0..<count { context.scheduleFollowUp("flood", after: .seconds(3600), payload: Array(repeating: 0x61, count: payloadBytes)) }
            return .doNotDismiss
        }

        func didReceiveFollowUp(_ followUp: FollowUp, context: inout ExtensionContext<Int>) async throws {}
    }

    private func pipeline(_ flood: Flood) throws -> ResponsePipeline {
        var registry = try Fixtures.registry(extension: nil, delegate: nil)
        try registry.register(flood)
        return ResponsePipeline(registry: registry, store: InMemoryStateStore(), logger: .quiet)
    }

    /// One call schedules at most 10 follow-ups of at most 4 KiB each, and a notification keeps at most 100 pending:
    /// past a cap, the call fails permanently, nothing of it committed.
    @Test func followUpsAreCappedPerCallPerNotificationAndInSize() async throws {
        let tap = { (id: String) in Events.message(Events.response(id: id)) }
        #expect(try await pipeline(Flood(count: FollowUp.maxPerCall + 1)).process(tap("r1")).isRetryableFailure == false)
        let big = Flood(count: 1, payloadBytes: FollowUp.maxPayloadBytes + 1)
        #expect(try await pipeline(big).process(tap("r1")).isRetryableFailure == false)
        #expect(try await pipeline(Flood(count: 1, payloadBytes: FollowUp.maxPayloadBytes)).process(tap("r1")).disposition == .updated)

        let pipeline = try pipeline(Flood(count: FollowUp.maxPerCall))
        for index in 1...(FollowUp.maxPending / FollowUp.maxPerCall) {
            #expect(await pipeline.process(tap("r\(index)")).disposition == .updated)
        }
        #expect(await pipeline.process(tap("r-over")).isRetryableFailure == false, "the notification keeps 100 already")
    }

    @Test func theAppTiersFollowUpMayRemoveItsNotification() async throws {
        let delegate = RemovingDelegate()
        let pipeline = try pipeline(delegate: delegate)
        let scheduled = await pipeline.process(
            Events.message(Events.response(id: "r1", category: "plain-category", action: .default)))
        let handled = await pipeline.process(try followUpMessage(in: scheduled))
        #expect(delegate.journal.entries == ["remove"])
        #expect(try EventCodec.decodeDeviceCommandEvent(try #require(handled.outputs.first).body, as: Removal.self).data.causationId == r1FollowUp)
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
