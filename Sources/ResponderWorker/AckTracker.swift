import DequeModule

/// Tracks which deliveries of one channel are settled, so one `basic.ack` with `multiple` can cover every
/// delivery up to the newest one that has no unsettled delivery before it.
///
/// Acking with `multiple` past an unsettled delivery would ack it too and lose it on a crash, so the tracker
/// only reports the end of the settled prefix. A delivery rejected on its own is no longer outstanding at the
/// broker, so an ack with `multiple` may pass it but must not name it.
struct AckTracker: Sendable {
    private enum Entry {
        case inFlight, acked, rejected
    }

    private var entries = Deque<Entry>()
    private var firstTag: UInt64 = 1

    /// Records a new delivery. Delivery tags on a channel are consecutive from 1, and every delivery of the
    /// channel must be recorded, in order.
    mutating func received(_ tag: UInt64) {
        if entries.isEmpty { firstTag = tag }
        precondition(tag == firstTag + UInt64(entries.count), "deliveries must be recorded in tag order")
        entries.append(.inFlight)
    }

    /// Marks `tag` settled, by an ack still to send (`acked`) or by a reject already sent, and returns the tag to
    /// ack with `multiple` when the settled prefix grew past an ack, else nil.
    mutating func settled(_ tag: UInt64, acked: Bool) -> UInt64? {
        let index = Int(tag - firstTag)
        precondition(index >= 0 && index < entries.count, "settled a delivery that is not in flight")
        entries[index] = acked ? .acked : .rejected
        var ackThrough: UInt64?
        while let first = entries.first, first != .inFlight {
            if first == .acked { ackThrough = firstTag }
            entries.removeFirst()
            firstTag += 1
        }
        return ackThrough
    }

    /// How many deliveries are received and not yet settled at the broker.
    var count: Int { entries.count }
}
