import DequeModule

/// Tracks which deliveries of one channel are settled and which acks to send for them: one `basic.ack` with
/// `multiple` for the settled prefix, and an ack of its own for a delivery settled behind one still being handled.
///
/// Acking with `multiple` past an unsettled delivery would ack it too and lose it on a crash, so `multiple` only
/// covers the settled prefix. A delivery acked or rejected on its own is no longer outstanding at the broker, so a
/// later ack with `multiple` may pass it but must not name it.
///
/// A delivery settled behind unsettled ones that all only wait for the broker's confirms of their outputs
/// (``confirming(_:)``) waits for them: the broker confirms what it has written to disk, usually within
/// milliseconds, and the `multiple` ack that follows covers it. On a quorum queue every ack frame is a command the
/// queue writes to its log: the bench's limit, acking an input without outputs (three in four on RedGreen's mix)
/// alone behind an unconfirmed one, cost the broker 40.0 µs of CPU per event against 24.5 acking this way (medians
/// of 3 runs each, 2026-11-26). The price: such an input's ack waits up to one confirm, and while the broker blocks
/// publishing (a memory or disk alarm) the inputs behind a held publish wait with it. Behind a delivery still being
/// handled, which may take as long as a handler's time limit or an ordered retry's delay, a settled delivery is
/// acked on its own at once, so a slow input never holds the acks, and the prefetch window, of the inputs after it.
struct AckTracker: Sendable {
    private enum State {
        /// Received, being handled.
        case inFlight
        /// Handled, its outputs published: waiting for their confirms to be settled.
        case confirming
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

    /// The acks one ``AckTracker/takeAcks()`` gives.
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

    /// Marks `tag` handled, waiting only for the broker's confirms of the outputs it published.
    mutating func confirming(_ tag: UInt64) {
        let index = self.index(tag)
        precondition(entries[index].state == .inFlight, "a delivery confirming twice or after it was settled")
        entries[index].state = .confirming
    }

    /// Marks `tag` settled: accepted (`acked`, its ack to be taken with ``takeAcks()``) or rejected by a reject
    /// already sent.
    mutating func settled(_ tag: UInt64, acked: Bool) {
        let index = self.index(tag)
        precondition(entries[index].state == .inFlight || entries[index].state == .confirming, "settled a delivery twice")
        entries[index].state = acked ? .toAck : .done
        if acked { toAck.append(tag) }
    }

    /// The acks for what is accepted and not acked yet, which the caller must send: the settled prefix with one
    /// `multiple` ack through its last accepted delivery, and alone every accepted delivery behind one still being
    /// handled. An accepted delivery behind only deliveries waiting for confirms is left to a later call's prefix.
    mutating func takeAcks() -> Acks {
        var acks = Acks()
        while let first = entries.first, first.state == .toAck || first.state == .done {
            if first.state == .toAck {
                acks.through = firstTag
                if let arrivalTime = first.arrivalTime { acks.arrivalTimes.append(arrivalTime) }
            }
            entries.removeFirst()
            firstTag += 1
        }
        guard !toAck.isEmpty else { return acks }
        let handling = UInt64(entries.firstIndex { $0.state == .inFlight } ?? entries.count)
        for tag in toAck where tag >= firstTag && tag - firstTag > handling {
            let index = Int(tag - firstTag)
            entries[index].state = .done
            acks.alone.append(tag)
            if let arrivalTime = entries[index].arrivalTime { acks.arrivalTimes.append(arrivalTime) }
        }
        // The rest is acked by the prefix: those that wait can only be passed by a `multiple` ack, since nothing
        // ahead of them is being handled (a delivery waiting for confirms never is again).
        toAck.removeAll(keepingCapacity: true)
        return acks
    }

    private func index(_ tag: UInt64) -> Int {
        precondition(tag >= firstTag && tag - firstTag < UInt64(entries.count), "a delivery that is not in flight")
        return Int(tag - firstTag)
    }

    /// How many deliveries are received and not yet settled at the broker.
    var count: Int { entries.count }
}
