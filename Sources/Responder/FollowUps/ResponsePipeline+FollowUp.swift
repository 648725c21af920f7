import Foundation
import NotificationEvents
import Tracing

extension ResponsePipeline {
    /// Handles a follow-up back from its delay queue on `known`, its notification's state, and says what to do.
    ///
    /// Only the stored follow-up counts, never the message: one that is not pending for this notification (handled
    /// already, dropped with a replacement or removal, or never scheduled: a forged message) is ignored, and so is one
    /// whose handler is no longer registered, or that came under a routing key other than its notification's (the
    /// worker routes each by its notification, so another one was published by someone else; for that reason the
    /// batch ignores one whose id the inbox holds for another notification before this runs). One that is not due yet
    /// by this worker's clock goes down the ladder again, committing nothing. A due one runs its handler on the
    /// notification as it is now (in `lane`), and its commit takes it off the pending list and writes its inbox entry,
    /// so it is handled once.
    func handle(
        _ member: BatchMember, _ followUp: DecodedFollowUp, on known: NotificationRecord?, in lane: ChainLanes.Call
    ) async -> Handling {
        guard followUp.message.routingKey == followUp.requestIdentifier else {
            return ignoredFollowUp(member, why: "its routing key is not its notification's request identifier")
        }
        let stored: [PendingFollowUp]
        do {
            stored = try known?.pendingFollowUps() ?? []
        } catch {
            return handlerFailure(error, of: followUp.id)
        }
        guard let known, !known.isRemoved, let pending = stored.first(where: { $0.followUp.id == followUp.id }) else {
            return ignoredFollowUp(
                member, why: "no such follow-up is pending: its notification was replaced or removed since, or the "
                    + "message is not one the worker sent")
        }
        guard pending.notificationDate.map(Succession.microseconds) == known.notificationDate.map(Succession.microseconds)
        else {
            return ignoredFollowUp(member, why: "the notification it was scheduled for was replaced since")
        }
        // In whole milliseconds, rounded as the stored due date was (InternetDate keeps milliseconds): compared
        // finer, a follow-up back within half a millisecond of its due time would wait another step for a rounding.
        let millisecondsLeft = Self.milliseconds(pending.followUp.dueDate) - Self.milliseconds(Date())
        if millisecondsLeft > 0 {
            let step = configuration.followUpLadder.step(for: .milliseconds(millisecondsLeft))
            let cause = FollowUpCause(pending: pending, record: known, message: followUp.message)
            return .done(
                .completed(
                    outputs: [configuration.followUpMessage(pending.followUp.id, of: known.requestIdentifier, to: step, causedBy: cause)],
                    disposition: .deferred))
        }
        guard let receiver = registry.receiver(named: pending.handler) else {
            return ignoredFollowUp(member, why: "the handler that scheduled it is no longer registered")
        }
        do {
            let cause = FollowUpCause(pending: pending, record: known, message: followUp.message)
            let log = ResponseLog(
                followUp: followUp.id, of: known.requestIdentifier, category: known.categoryIdentifier, base: logger)
            let handled = try await ServiceContext.withValue(member.span?.context ?? ServiceContext.current) {
                try await run(receiver, for: cause, log: log, in: lane)
            }
            if let refusal = try checkHandled(handled) { return refusal }
            let entry = InboxEntry(
                source: FollowUp.inboxSource, eventID: pending.followUp.id, requestIdentifier: known.requestIdentifier,
                outputs: handled.outputs, processedAt: Date())
            return .commit(
                StateCommit(
                    inboxEntry: entry, notification: handled.record, actionsChanged: handled.record.actions != known.actions,
                    replacesHandlerStates: handled.record.isRemoved))
        } catch {
            return handlerFailure(error, of: pending.followUp.id)
        }
    }

    /// Runs the handler that scheduled `cause`'s follow-up on its notification, without storing anything: the
    /// record it leaves no longer holds the follow-up.
    private func run(
        _ receiver: Route.Receiver, for cause: FollowUpCause, log: ResponseLog, in lane: ChainLanes.Call
    ) async throws -> HandledResponse {
        let record = cause.record
        var updated = record
        updated.setPendingFollowUps(try record.pendingFollowUps().filter { $0.followUp.id != cause.pending.followUp.id })
        var requests = HandlerRequests(notificationActions: record.actions)
        let followUp = cause.pending.followUp
        switch receiver {
        case .delegate(let delegate):
            try await call(delegate, forwarded: false, requests: &requests, log: log, in: lane) { delegate, context in
                try await delegate.didReceiveFollowUp(followUp, context: &context)
            }
            requests.claimFollowUps(for: HandlerTimeout.delegate)
        case .extension(let handler):
            let result = try await call(handler, on: record, log: log, in: lane) {
                try await $0.didReceiveFollowUp(followUp, $1)
            }
            updated.handlerStates[handler.name] = result.state
            requests = result.requests
            requests.claimFollowUps(for: handler.name)
        }
        return try handled(requests, responseOption: .doNotDismiss, leaving: updated, on: record, causedBy: cause)
    }

    /// A follow-up that needs nothing done: acknowledged, counted as ignored, and logged with `why` at debug, as an
    /// unrouted response is (anyone who can publish to the input exchange could otherwise write to the log).
    func ignoredFollowUp(_ member: BatchMember, why: String) -> Handling {
        member.log.log(.debug, "follow-up ignored", ["outcome": "ignored", "why": "\(why)"])
        return .done(.completed(outputs: [], disposition: .ignored))
    }

    /// `date` in whole milliseconds since 1970, rounded as `InternetDate` writes it.
    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000).rounded())
    }
}
