import Foundation
import NotificationEvents

extension ResponsePipeline {
    /// Handles a lifecycle event on `known`, its notification's state, and says what to commit. No handler runs.
    ///
    /// A replacement starts fresh state for the new notification, as a response to it would (``Succession``), and
    /// publishes nothing: the push sender that sent the new notification knows its buttons. A removal, pending or
    /// delivered, leaves a tombstone (no actions, no handler states, the later of the notification's date and the
    /// removal's) under a raised version and publishes `notification.removed.v1` with that version, so a push sender
    /// applies it after every earlier output and a later response to the removed notification is stale. A removal
    /// dated before the stored notification was delivered is about one that notification replaced: it is stale.
    func handle(_ member: BatchMember, _ lifecycle: DecodedLifecycle, on known: NotificationRecord?) -> Handling {
        let change = lifecycle.event.data
        let record: NotificationRecord
        switch change.change {
        case .replaced(let replacement):
            let fresh = {
                freshRecord(
                    lifecycle.requestIdentifier, category: replacement.categoryIdentifier, delivered: replacement.date,
                    replacing: known)
            }
            // A record stored before stores kept dates is the notification the replacement replaced.
            guard let known, known.notificationDate != nil else { return commit(lifecycle, fresh(), outputs: []) }
            switch Succession.of(known, date: replacement.date, category: replacement.categoryIdentifier, fresh: fresh) {
            case .stale(let why):
                member.log.log(.debug, "replacement of an earlier notification", ["outcome": "stale", "why": "\(why)"])
                return .done(.completed(outputs: [], disposition: .stale))
            case .current:
                return commit(lifecycle, nil, outputs: [])
            case .replacement(let fresh):
                record = fresh
            }
        case .removedPending, .removedDelivered:
            if let known, !known.isRemoved, let delivered = known.notificationDate,
                Succession.microseconds(change.date) < Succession.microseconds(delivered)
            {
                member.log.log(
                    .debug, "removal of an earlier notification",
                    ["outcome": "stale", "why": "the removal is dated before the stored notification was delivered"])
                return .done(.completed(outputs: [], disposition: .stale))
            }
            // A notification never stored takes the category the removal names, if any: its removal is routed by it.
            record = NotificationRecord(
                requestIdentifier: lifecycle.requestIdentifier,
                categoryIdentifier: known?.categoryIdentifier ?? change.categoryIdentifier ?? "",
                actions: [], version: known?.version ?? 0,
                notificationDate: max(known?.notificationDate ?? change.date, change.date), isRemoved: true)
        }
        var outputs: [OutboundMessage] = []
        if record.isRemoved { outputs.append(removal(of: record, causedBy: lifecycle)) }
        if let problem = unpublishable(outputs) {
            return .done(
                .deadLetter(reason: .unpublishable, detail: "an output built for this input cannot be published: \(problem)"))
        }
        return commit(lifecycle, record, outputs: outputs)
    }

    /// The commit of `lifecycle` with its outputs, writing `record` whole (a fresh or removed notification) if any.
    private func commit(_ lifecycle: DecodedLifecycle, _ record: NotificationRecord?, outputs: [OutboundMessage]) -> Handling {
        let entry = InboxEntry(
            source: lifecycle.event.source, eventID: lifecycle.event.id, requestIdentifier: lifecycle.requestIdentifier,
            outputs: outputs, processedAt: Date())
        return .commit(StateCommit(inboxEntry: entry, notification: record, replacesHandlerStates: true))
    }

    /// The `notification.removed.v1` caused by `lifecycle`, at the version its commit gives `record`, to the output
    /// exchange under the category, as an action-set update goes.
    private func removal(of record: NotificationRecord, causedBy lifecycle: DecodedLifecycle) -> OutboundMessage {
        configuration.deviceCommand(
            Removal.self, requestIdentifier: record.requestIdentifier, categoryIdentifier: record.categoryIdentifier,
            causedBy: lifecycle.event.id, message: lifecycle.message,
            time: lifecycle.event.time ?? lifecycle.event.data.date, version: record.version + 1, to: outputExchange)
    }
}
