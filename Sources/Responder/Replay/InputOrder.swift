/// Puts results that complete in any order back in the order their inputs came in.
struct InputOrder<Value> {
    /// The inputs not yet released, in arrival order.
    private var pending: [Int] = []
    private var released = 0
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
        while released < pending.count, let next = completed.removeValue(forKey: pending[released]) {
            ready.append((pending[released], next))
            released += 1
        }
        if released == pending.count {
            pending.removeAll(keepingCapacity: true)
            released = 0
        }
        return ready
    }
}
