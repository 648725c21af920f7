/// The publishes of one confirm-mode channel that the broker has not acked or nacked yet, by sequence number.
///
/// Sequence numbers start at 1 after confirm.select and count every publish on the channel. The broker confirms
/// mostly in order, often several at once (`multiple`), so pending publishes sit in an array indexed by
/// `sequence - base`, and resolved slots at the front are dropped as the front advances.
struct ConfirmTracker {
    private var pending: [PublishConfirmation?] = []
    /// The sequence number of `pending[0]`.
    private var base: UInt64 = 1
    /// `pending[..<head]` are resolved.
    private var head = 0

    /// Records the next publish; its sequence number is the count of publishes registered before plus one.
    mutating func register(_ confirmation: PublishConfirmation) {
        pending.append(confirmation)
    }

    /// Resolves the publish with sequence number `tag`, or with `multiple` every pending one up to it;
    /// `outcome` gives each one's result from its sequence number.
    mutating func resolve(_ tag: UInt64, multiple: Bool, outcome: (UInt64) -> AMQPError?) {
        guard tag >= base, tag - base < UInt64(pending.count) else { return }
        let last = Int(tag - base)
        for index in (multiple ? min(head, last) : last)...last {
            if let confirmation = pending[index] {
                pending[index] = nil
                confirmation.resolve(outcome(base + UInt64(index)))
            }
        }
        while head < pending.count, pending[head] == nil {
            head += 1
        }
        compact()
    }

    /// Resolves every pending publish with `error`.
    mutating func failAll(_ error: AMQPError) {
        for index in head..<pending.count {
            pending[index]?.resolve(error)
        }
        base += UInt64(pending.count)
        pending.removeAll()
        head = 0
    }

    /// Drops resolved slots from the front once they are most of the array, keeping its capacity.
    private mutating func compact() {
        if head == pending.count {
            base += UInt64(head)
            pending.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024, head * 2 >= pending.count {
            base += UInt64(head)
            pending.removeFirst(head)
            head = 0
        }
    }
}
