import DequeModule

/// Puts results that complete in any order back in the order their inputs came in.
struct InputOrder<Value> {
    /// The inputs not yet released, in arrival order.
    private var pending = Deque<Int>()
    /// Completed inputs waiting for an earlier one.
    private var completed: [Int: Value] = [:]

    /// Notes that input `key` arrived; keys must be unique.
    mutating func expect(_ key: Int) {
        pending.append(key)
    }

    /// Records the result of `key` and returns every result that is now next in arrival order.
    mutating func complete(_ key: Int, _ value: Value) -> [(line: Int, value: Value)] {
        completed[key] = value
        var ready: [(line: Int, value: Value)] = []
        while let next = pending.first, let value = completed.removeValue(forKey: next) {
            _ = pending.popFirst()
            ready.append((next, value))
        }
        return ready
    }
}
