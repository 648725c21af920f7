import DequeModule

/// Tracks which deliveries of one channel are settled and which acks to send for them: one `basic.ack` with
/// `multiple` for the settled prefix, and an ack of its own for each delivery settled behind an unsettled one.
///
/// Acking with `multiple` past an unsettled delivery would ack it too and lose it on a crash, so `multiple` only
/// covers the settled prefix. A delivery acked or rejected on its own is no longer outstanding at the broker, so a
/// later ack with `multiple` may pass it but must not name it. Acks wait for nothing: what ``settled(_:acked:)``
/// recorded goes out with the next ``takeAcks()``, whether or not earlier deliveries are still in flight.
struct AckTracker: Sendable {
    private enum State {
        /// Received, not settled.
        case inFlight
        /// Accepted, its ack not taken yet.
        case toAck
        /// Acked or rejected at the broker: no longer outstanding there.
        case done
    }

    private struct Entry {
        var state: State
        /// When the client read the delivery (`AMQPDelivery.arrivalTime`), if it says.
        let arrivalTime: ContinuousClock.Instant?
    }

    /// The acks that settle what was recorded since the last ``AckTracker/takeAcks()``.
    struct Acks: Equatable, Sendable {
        /// Ack every outstanding delivery up to and including this one (`multiple`), when set.
        var through: UInt64?
        /// Ack each of these alone: an earlier delivery is still in flight.
        var alone: [UInt64] = []
        /// When the client read each delivery these acks settle, of those that say: where the time from delivery
        /// to ack starts.
        var arrivalTimes: [ContinuousClock.Instant] = []

        var isEmpty: Bool { through == nil && alone.isEmpty }
    }

    private var entries = Deque<Entry>()
    private var firstTag: UInt64 = 1
    /// The tags marked `toAck` since the last ``takeAcks()``, in the order they were settled.
    private var toAck: [UInt64] = []

    /// Records a new delivery, read off the socket at `arrivalTime`. Delivery tags on a channel are consecutive
    /// from 1, and every delivery of the channel must be recorded, in order.
    mutating func received(_ tag: UInt64, arrivalTime: ContinuousClock.Instant? = nil) {
        if entries.isEmpty { firstTag = tag }
        precondition(tag == firstTag + UInt64(entries.count), "deliveries must be recorded in tag order")
        entries.append(Entry(state: .inFlight, arrivalTime: arrivalTime))
    }

    /// Marks `tag` settled: accepted (`acked`, its ack to be taken with ``takeAcks()``) or rejected by a reject
    /// already sent.
    mutating func settled(_ tag: UInt64, acked: Bool) {
        precondition(tag >= firstTag && tag - firstTag < UInt64(entries.count), "settled a delivery that is not in flight")
        let index = Int(tag - firstTag)
        precondition(entries[index].state == .inFlight, "settled a delivery twice")
        entries[index].state = acked ? .toAck : .done
        if acked { toAck.append(tag) }
    }

    /// The acks for everything accepted since the last call, which the caller must send: the settled prefix with
    /// one `multiple` ack through its last accepted delivery, every other accepted delivery alone.
    mutating func takeAcks() -> Acks {
        var acks = Acks()
        while let first = entries.first, first.state != .inFlight {
            if first.state == .toAck {
                acks.through = firstTag
                if let arrivalTime = first.arrivalTime { acks.arrivalTimes.append(arrivalTime) }
            }
            entries.removeFirst()
            firstTag += 1
        }
        for tag in toAck where tag >= firstTag {
            let index = Int(tag - firstTag)
            entries[index].state = .done
            acks.alone.append(tag)
            if let arrivalTime = entries[index].arrivalTime { acks.arrivalTimes.append(arrivalTime) }
        }
        toAck.removeAll(keepingCapacity: true)
        return acks
    }

    /// How many deliveries are received and not yet settled at the broker.
    var count: Int { entries.count }
}
