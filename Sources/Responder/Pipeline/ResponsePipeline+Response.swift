import Foundation
import NotificationEvents
import Tracing

extension ResponsePipeline {
    /// Handles a response on `known`, its notification's state, judged by ``Succession``: on it, on fresh state
    /// when the response's notification replaced it, or not at all when that one was replaced or removed since.
    func handle(
        _ member: BatchMember, _ response: DecodedResponse, by receiver: Route.Receiver, on known: NotificationRecord?,
        in call: ChainLanes.Call
    ) async -> Handling {
        let notification = response.event.data.notification
        let category = notification.request.content.categoryIdentifier
        let fresh = { [self] (replaced: NotificationRecord?) in
            freshRecord(response.requestIdentifier, category: category, delivered: notification.date, replacing: replaced)
        }
        guard let known else {
            let record = fresh(nil)
            return await handle(member, response, by: receiver, on: record, stored: record, startsFresh: false, in: call)
        }
        let succession = Succession.of(known, date: notification.date, category: category) { fresh(known) }
        switch succession {
        case .stale(let why):
            member.log.log(.debug, "response to an earlier notification", ["outcome": "stale", "why": "\(why)"])
            return .done(.completed(outputs: [], disposition: .stale))
        case .conflicting(let why):
            return .done(.deadLetter(reason: .categoryChanged, detail: why))
        case .current(let record):
            return await handle(member, response, by: receiver, on: record, stored: known, startsFresh: false, in: call)
        case .replacement(let record):
            return await handle(member, response, by: receiver, on: record, stored: known, startsFresh: true, in: call)
        }
    }

    /// Runs one event's handlers on `record` (within its `handle` span) and says what to commit: the record the
    /// handlers left, unless it is still `stored`, the notification as the store holds it. When `startsFresh` (a
    /// replacement), `record` is a fresh one whose category, actions and handler states replace the stored ones.
    private func handle(
        _ member: BatchMember, _ input: DecodedResponse, by receiver: Route.Receiver, on record: NotificationRecord,
        stored: NotificationRecord, startsFresh: Bool, in call: ChainLanes.Call
    ) async -> Handling {
        do {
            let handled = try await ServiceContext.withValue(member.span?.context ?? ServiceContext.current) {
                try await run(receiver, for: input, on: record, log: member.log, in: call)
            }
            if let refusal = try checkHandled(handled) { return refusal }
            let entry = InboxEntry(
                source: input.event.source, eventID: input.event.id, requestIdentifier: input.requestIdentifier,
                outputs: handled.outputs, processedAt: Date())
            // An update carries the version its commit gives the notification, so a response with an update writes
            // the notification even when nothing else of it changed.
            let changed = handled.record == stored && handled.outputs.isEmpty ? nil : handled.record
            return .commit(
                StateCommit(
                    inboxEntry: entry, notification: changed,
                    actionsChanged: startsFresh || handled.record.actions != stored.actions,
                    replacesHandlerStates: startsFresh || handled.record.isRemoved))
        } catch {
            return handlerFailure(error, of: input.event.id)
        }
    }
}
