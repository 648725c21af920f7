import Foundation

/// A follow-up that came due, as the cause of the outputs its handling produces: they derive from the stored
/// follow-up and the notification's record, never from the clock or the message that brought it.
struct FollowUpCause: OutputCause {
    var pending: PendingFollowUp
    var record: NotificationRecord
    var message: InboundMessage

    var causationID: String { pending.followUp.id }
    var requestIdentifier: String { record.requestIdentifier }
    var categoryIdentifier: String { record.categoryIdentifier }
    var outputTime: Date { pending.followUp.dueDate }
}
