import Synchronization

/// The deadlines of the handler calls in progress, kept by one timer task that sleeps until the earliest and then
/// expires what is due; a pipeline has one. Arming and disarming take a lock and a dictionary entry, the whole
/// per-call cost; the timer task wakes about once per limit while calls go on and ends when none is pending.
final class HandlerDeadlines: Sendable {
    typealias Instant = ContinuousClock.Instant

    private struct Pending {
        var deadline: Instant
        var expire: @Sendable () -> Void
    }

    private struct State {
        var pending: [UInt64: Pending] = [:]
        var nextID: UInt64 = 0
        /// When the timer task wakes next; nil when none runs.
        var wakeUp: Instant?
        var timer: Task<Void, Never>?
        /// Counts the timer tasks started, so one replaced by another leaves the state to it.
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Calls `expire` at `deadline` unless ``disarm(_:)`` comes first; returns what to disarm it with.
    func arm(_ deadline: Instant, expire: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.pending[id] = Pending(deadline: deadline, expire: expire)
            // Equal limits give later deadlines than the timer's; only a shorter limit restarts it.
            if state.wakeUp.map({ deadline < $0 }) ?? true {
                state.timer?.cancel()
                state.wakeUp = deadline
                state.generation += 1
                let generation = state.generation
                state.timer = Task { await self.run(until: deadline, generation: generation) }
            }
            return id
        }
    }

    /// Forgets the deadline `id`: its call ended.
    func disarm(_ id: UInt64) {
        _ = state.withLock { $0.pending.removeValue(forKey: id) }
    }

    /// Sleeps until `wakeUp`, expires what is due, and goes on to the next deadline; returns when none is left, or
    /// when another timer replaced this one (an earlier deadline came).
    private func run(until wakeUp: Instant, generation: UInt64) async {
        var wakeUp = wakeUp
        while (try? await Task.sleep(until: wakeUp, clock: .continuous)) != nil {
            let now = ContinuousClock.now
            let (due, next) = state.withLock { state -> ([Pending], Instant?) in
                guard state.generation == generation else { return ([], nil) }
                let due = state.pending.filter { $0.value.deadline <= now }
                for id in due.keys { state.pending[id] = nil }
                state.wakeUp = state.pending.values.lazy.map(\.deadline).min()
                if state.wakeUp == nil { state.timer = nil }
                return (Array(due.values), state.wakeUp)
            }
            for pending in due { pending.expire() }
            guard let next else { return }
            wakeUp = next
        }
    }
}
