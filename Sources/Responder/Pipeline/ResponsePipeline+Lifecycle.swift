import Foundation
import NotificationEvents

extension ResponsePipeline {
    /// Handles a lifecycle event on `known`, its notification's state, and says what to commit. No handler runs.
    ///
    /// A replacement starts fresh state for the new notification, as a response to it would (``Succession``), and
    /// publishes nothing: the push sender that sent the new notification knows its buttons. A removal, pending or
    /// delivered, leaves a tombstone (no actions, no handler states, the removed delivery's date) under a raised version
    /// and publishes `notification.removed.v1` with that version, so a push sender applies it after every earlier output
    /// and a later response to the removed notification is stale. A removal is judged by the delivery date it names, in
    /// the device's clock as the stored one, never by its own date, the producer's clock: one naming a delivery before
    /// the stored one is about a notification the stored one replaced, and is stale; one naming none removes whatever
    /// is stored.
    func handle(_ member: BatchMember, _ lifecycle: DecodedLifecycle, on known: NotificationRecord?) -> Handling {
        let change = lifecycle.event.data
        let record: NotificationRecord
        switch change.change {
        case .replaced(let replacement):
            let fresh = { [self] in
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
            case .conflicting(let why):
                return .done(.deadLetter(reason: .categoryChanged, detail: why))
            case .current:
                return commit(lifecycle, nil, outputs: [])
            case .replacement(let fresh):
                record = fresh
            }
        case .removedPending, .removedDelivered:
            if let known, let named = change.notificationDate, let stored = known.notificationDate,
                Succession.microseconds(named) < Succession.microseconds(stored)
            {
                member.log.log(
                    .debug, "removal of an earlier notification",
                    ["outcome": "stale", "why": "the removal names a delivery before the stored notification's"])
                return .done(.completed(outputs: [], disposition: .stale))
            }
            // A notification never stored takes the category the removal names, if any: its removal is routed by it.
            record = NotificationRecord(
                requestIdentifier: lifecycle.requestIdentifier,
                categoryIdentifier: known?.categoryIdentifier ?? change.categoryIdentifier ?? "",
                actions: [], version: known?.version ?? 0, notificationDate: Self.delivery(removedBy: change, from: known),
                isRemoved: true)
        }
        var outputs: [OutboundMessage] = []
        if record.isRemoved { outputs.append(removal(of: record, causedBy: lifecycle)) }
        if let problem = unpublishable(outputs) {
            return .done(
                .deadLetter(reason: .unpublishable, detail: "an output built for this input cannot be published: \(problem)"))
        }
        return commit(lifecycle, record, outputs: outputs)
    }

    /// The delivery date the tombstone `change` leaves keeps: the one the removal names, or else the stored one (the
    /// latest delivery the worker has seen). A pending notification never stored was never delivered, so a response
    /// after its removal is to a later delivery: its tombstone is dated before every delivery. A delivered one whose
    /// date neither the removal nor the store knows keeps none, and every response after it is stale (``Succession``):
    /// a removal wins over a late response to the notification it removed, which the worker cannot tell apart.
    private static func delivery(removedBy change: NotificationLifecycleChange, from known: NotificationRecord?) -> Date? {
        if let named = change.notificationDate { return named }
        switch known?.notificationDate {
        case let seen? where seen != Succession.beforeEveryDelivery: return seen
        // A delivery whose date is unknown: a record stored before stores kept dates, or a removed one's tombstone.
        case nil where known != nil: return nil
        default: return change.change == .removedPending ? Succession.beforeEveryDelivery : nil
        }
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
