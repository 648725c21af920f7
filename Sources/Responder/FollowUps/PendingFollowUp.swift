import Foundation
import NotificationEvents

/// A follow-up as the notification's state keeps it until it is handled: what is due, for which handler, and the
/// delivery date of the notification it was scheduled for. Only what is stored counts; the message that brings a
/// follow-up back names it and its notification, nothing more.
struct PendingFollowUp: Sendable, Hashable, Codable {
    var followUp: FollowUp
    /// The extension's name, or `delegate` (``HandlerTimeout/delegate``) for the app tier.
    var handler: String
    /// The `notification.date` of the notification it was scheduled for.
    var notificationDate: Date?

    /// The handler state key the pending follow-ups are stored under, as a JSON array: kept, replaced and removed with
    /// the handlers' states (a replacement or removal of the notification drops them), so every store keeps them
    /// without a schema of their own. No extension may take this name.
    static let stateKey = "responder.follow-ups"
}

extension NotificationRecord {
    /// The follow-ups scheduled for this notification and not handled yet, in the order they were scheduled.
    ///
    /// Stored bytes that no longer decode read as none: the follow-ups are then ignored when they come, which is
    /// what happens to those of a notification replaced since.
    var pendingFollowUps: [PendingFollowUp] {
        get {
            guard let bytes = handlerStates[PendingFollowUp.stateKey] else { return [] }
            return (try? EventCodec.decodeStored([PendingFollowUp].self, from: bytes)) ?? []
        }
        set {
            // Written even when empty: a commit that keeps the other handlers' states would otherwise keep the old list.
            handlerStates[PendingFollowUp.stateKey] = EventCodec.encode(newValue)
        }
    }
}
