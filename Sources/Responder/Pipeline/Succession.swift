import Foundation

/// How a response's notification relates to the state stored under its request identifier. iOS replaces a
/// notification when a request with the same identifier is added again, so one identifier names a succession of
/// notifications, told apart by their delivery date (and category).
enum Succession: Sendable {
    /// The response is about the stored notification: it is handled on this record.
    case current(NotificationRecord)
    /// The response is about a notification that replaced the stored one: it is handled on this fresh record.
    case replacement(NotificationRecord)
    /// The response is about a notification that was replaced or removed since: it changes nothing, for this reason.
    case stale(why: String)

    /// Where a response to the notification delivered at `date` under `category` stands against `record`, the
    /// state stored for its request identifier; `fresh` is the record a replacement starts from.
    ///
    /// A later date, or the same date with another category (a notification's category never changes), is a
    /// replacement; an earlier date is stale, and so is any date up to a removed notification's, and any date at all
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
        if delivered > stored || category != record.categoryIdentifier { return .replacement(fresh()) }
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
