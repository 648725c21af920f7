import Foundation

/// How a response's notification relates to the state stored under its request identifier. iOS replaces a
/// notification when a request with the same identifier is added again, so one identifier names a succession of
/// notifications, told apart by their delivery date.
enum Succession: Sendable {
    /// The response is about the stored notification: it is handled on this record.
    case current(NotificationRecord)
    /// The response is about a notification that replaced the stored one: it is handled on this fresh record.
    case replacement(NotificationRecord)
    /// The response is about a notification that was replaced or removed since: it changes nothing, for this reason.
    case stale(why: String)
    /// The response names the stored notification's delivery under another category. A notification's category never
    /// changes, so the producer misreported one of them; handling it would reset the state, and two such responses
    /// would reset it in turn: it is refused, for this reason.
    case conflicting(why: String)

    /// Where a response to the notification delivered at `date` under `category` stands against `record`, the
    /// state stored for its request identifier; `fresh` is the record a replacement starts from.
    ///
    /// A later date is a replacement; the same date with another category conflicts (a notification's category never
    /// changes, and the same delivery date is the same notification); an earlier date is stale, and so is any date up to a removed notification's, and any date at all
    /// after a removal whose delivery date is unknown. A record stored before stores kept dates learns the date from
    /// its next response, unless that one's category differs.
    static func of(
        _ record: NotificationRecord, date: Date, category: String, fresh: () -> NotificationRecord
    ) -> Succession {
        guard let storedDate = record.notificationDate else {
            if record.isRemoved { return .stale(why: "the notification was removed, and no later delivery is known") }
            guard category == record.categoryIdentifier else { return .replacement(fresh()) }
            var dated = record
            dated.notificationDate = date
            return .current(dated)
        }
        let delivered = microseconds(date)
        let stored = microseconds(storedDate)
        if record.isRemoved {
            return delivered > stored
                ? .replacement(fresh()) : .stale(why: "the notification was removed after it was delivered")
        }
        if delivered < stored { return .stale(why: "a notification delivered later replaced this one") }
        if delivered > stored { return .replacement(fresh()) }
        guard category == record.categoryIdentifier else {
            return .conflicting(
                why: "the event names category \"\(category)\" for a delivery (the same request identifier and date) "
                    + "stored under category \"\(record.categoryIdentifier)\": a notification's category never changes; "
                    + "send the event again with the category its notification was delivered with, or report a new "
                    + "category as a new delivery (a later date)")
        }
        return .current(record)
    }

    /// The delivery date of a tombstone that removed no delivered notification (a pending one the worker never
    /// stored): every response after it is to a later delivery. Stores keep it as any date.
    static let beforeEveryDelivery = Date.distantPast

    /// `date` in whole microseconds: PostgreSQL keeps no finer time, and SQLite's seconds since 1970 in a double may
    /// come back a rounding away from the date that went in; neither may turn the same notification into a new one.
    static func microseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }
}
