import Metrics
import Synchronization

/// The lanes that run one round's notification chains: at most `concurrency` tasks, each taking chains from one queue
/// and calling their handlers inline, so a handler that does not suspend costs no task hop of its own (a task per
/// handler call, raced against its deadline, was about 15% of an event's CPU in replay).
///
/// A handler call past its limit abandons its lane instead: the lane's task is cancelled and left to end on its own
/// (it calls no further handler, and what it returns or reports later is dropped), the round goes on at once with the
/// call's event failed by a ``HandlerTimeout``, and a fresh lane takes over the rest of that chain and the queue. So
/// a handler that ignores cancellation holds neither the round nor its notification's later events.
final class ChainLanes: Sendable {
    /// The state of one chain, as its lane leaves it after each event.
    struct Cursor: Sendable {
        let chain: [Int]
        var position = 0
        /// The notification as its events so far leave it; nil until the first is handled.
        var current: NotificationRecord?
        var seen: Set<InboxKey> = []
        var handled: [(Int, ResponsePipeline.Handling)] = []

        init(chain: [Int]) { self.chain = chain }

        /// Records the event at `position` and moves past it.
        mutating func record(_ handling: ResponsePipeline.Handling) {
            handled.append((chain[position], handling))
            position += 1
        }
    }

    /// The event a lane is calling a handler for: what the round needs to go on without the lane if the call outlasts
    /// its limit.
    struct Call: Sendable {
        let lane: Lane
        /// The chain before the event; the event is `cursor.chain[cursor.position]`.
        let cursor: Cursor
        /// The notification the event is handled on, for the chain's `current` once it fails.
        let known: NotificationRecord?

        /// The event's batch position.
        var index: Int { cursor.chain[cursor.position] }
    }

    /// A lane of a round, as its handler calls name it.
    struct Lane: Sendable {
        let lanes: ChainLanes
        let id: Int
    }

    /// A call cut off by its deadline, handed to the round.
    struct TimedOut: Sendable {
        var call: Call
        var failure: HandlerRunError
    }

    /// What ends an armed call: ``disarm(_:)`` takes it back.
    struct Armed: Sendable {
        fileprivate let lane: Int
        fileprivate let number: UInt64
        fileprivate let deadline: UInt64
    }

    /// A class: a lane's state moves in and out of the lanes' dictionary at every call, and the call (its chain's
    /// cursor, the notification) is too large to copy each time.
    private final class ArmedCall: Sendable {
        let number: UInt64
        let call: Call
        let timeout: HandlerTimeout
        let counter: Counter

        init(number: UInt64, call: Call, timeout: HandlerTimeout, counter: Counter) {
            self.number = number
            self.call = call
            self.timeout = timeout
            self.counter = counter
        }
    }

    private struct LaneState {
        var task: Task<Void, Never>?
        var armed: ArmedCall?
        var calls: UInt64 = 0
    }

    private struct State {
        var chains: [[Int]]
        var nextChain = 0
        /// By batch position: an array, since every position of a round is filled.
        var handlings: [ResponsePipeline.Handling?]
        /// The lanes still running: not ended, not abandoned.
        var lanes: [Int: LaneState] = [:]
        var nextLane = 0
        var timedOut: [TimedOut] = []
        var waiting: CheckedContinuation<Void, Never>?
        var cancelled = false
    }

    private let state: Mutex<State>
    private let executor: (any TaskExecutor)?
    private let deadlines: HandlerDeadlines
    private let abandoned: AbandonedCalls

    /// Lanes for `chains`, lists of batch positions below `positions`, whose tasks prefer `executor` (nil: the global
    /// concurrent executor).
    init(
        chains: [[Int]], positions: Int, executor: (any TaskExecutor)?, deadlines: HandlerDeadlines,
        abandoned: AbandonedCalls
    ) {
        state = Mutex(State(chains: chains, handlings: Array(repeating: nil, count: positions)))
        self.executor = executor
        self.deadlines = deadlines
        self.abandoned = abandoned
    }

    /// Runs the chains on at most `concurrency` lanes, each chain by `advance` (which returns at the chain's end), and
    /// returns the handling of each event by batch position. A timed-out call's event is handled by `failed`, and its
    /// chain goes on from there in a fresh lane. The round's cancellation cancels the lanes, and it still waits for
    /// them (or their deadlines).
    func run(
        concurrency: Int,
        advance: @escaping @Sendable (inout Cursor, Lane) async -> Void,
        failed: @escaping @Sendable (TimedOut) -> ResponsePipeline.Handling
    ) async -> [ResponsePipeline.Handling?] {
        let lanes = min(max(1, concurrency), state.withLock { $0.chains.count })
        for _ in 0..<lanes { start(with: nil, advance: advance) }
        await withTaskCancellationHandler {
            while true {
                await withCheckedContinuation { continuation in
                    let ready = state.withLock { state in
                        guard state.timedOut.isEmpty, !state.lanes.isEmpty else { return true }
                        state.waiting = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
                let timedOut = state.withLock { state in
                    defer { state.timedOut.removeAll() }
                    return state.timedOut
                }
                // Woken with no timeout: every lane ended.
                if timedOut.isEmpty { break }
                for timeout in timedOut {
                    var cursor = timeout.call.cursor
                    // A failed event leaves its notification as it found it.
                    cursor.current = timeout.call.known
                    cursor.record(failed(timeout))
                    start(with: cursor, advance: advance)
                }
            }
        } onCancel: {
            let tasks = state.withLock { state in
                state.cancelled = true
                return state.lanes.values.compactMap(\.task)
            }
            for task in tasks { task.cancel() }
        }
        return state.withLock { $0.handlings }
    }

    /// Starts a lane that goes on with `cursor`, if any, then takes chains from the queue until it is empty.
    private func start(with cursor: Cursor?, advance: @escaping @Sendable (inout Cursor, Lane) async -> Void) {
        let lane = state.withLock { state in
            defer { state.nextLane += 1 }
            state.lanes[state.nextLane] = LaneState()
            return state.nextLane
        }
        let task = Task(executorPreference: executor) {
            var next = cursor ?? self.finish(nil, lane: lane)
            while var cursor = next {
                await advance(&cursor, Lane(lanes: self, id: lane))
                next = self.finish(cursor, lane: lane)
            }
        }
        let cancel = state.withLock { state in
            state.lanes[lane]?.task = task
            return state.cancelled || state.lanes[lane] == nil
        }
        if cancel { task.cancel() }
    }

    /// Records the handlings of a lane's finished chain and gives the lane the next chain; nil when the queue is empty
    /// (the lane ends) or the lane was abandoned (what it did is dropped).
    private func finish(_ finished: Cursor?, lane: Int) -> Cursor? {
        let (next, waiting) = state.withLock { state -> (Cursor?, CheckedContinuation<Void, Never>?) in
            guard state.lanes[lane] != nil else { return (nil, nil) }
            for (index, handling) in finished?.handled ?? [] { state.handlings[index] = handling }
            if state.nextChain < state.chains.count {
                defer { state.nextChain += 1 }
                return (Cursor(chain: state.chains[state.nextChain]), nil)
            }
            state.lanes[lane] = nil
            guard state.lanes.isEmpty else { return (nil, nil) }
            defer { state.waiting = nil }
            return (nil, state.waiting)
        }
        waiting?.resume()
        return next
    }

    /// Arms `call`'s deadline, `limit` from now; nil when its lane was abandoned, so the handler must not be called.
    func arm(_ call: Call, timeout: HandlerTimeout, counting counter: Counter) -> Armed? {
        let number = state.withLock { state -> UInt64? in
            guard state.lanes[call.lane.id] != nil else { return nil }
            state.lanes[call.lane.id]!.calls += 1
            let number = state.lanes[call.lane.id]!.calls
            state.lanes[call.lane.id]!.armed = ArmedCall(number: number, call: call, timeout: timeout, counter: counter)
            return number
        }
        guard let number else { return nil }
        let deadline = deadlines.arm(ContinuousClock.now.advanced(by: timeout.limit)) { [self] in
            expire(lane: call.lane.id, number: number)
        }
        return Armed(lane: call.lane.id, number: number, deadline: deadline)
    }

    /// Ends an armed call; false when its deadline came first, so what it returned is to be dropped (and the call,
    /// abandoned until now, has ended).
    func disarm(_ armed: Armed) -> Bool {
        deadlines.disarm(armed.deadline)
        return state.withLock { state in
            guard state.lanes[armed.lane]?.armed?.number == armed.number else {
                // Under the lock that abandoned it, so the count goes up before it comes down.
                abandoned.end()
                return false
            }
            state.lanes[armed.lane]!.armed = nil
            return true
        }
    }

    /// The deadline of the lane's call `number` came: unless the call ended, the lane is abandoned, its task
    /// cancelled, and the round told.
    private func expire(lane: Int, number: UInt64) {
        let expired = state.withLock { state -> (ArmedCall, Task<Void, Never>?, CheckedContinuation<Void, Never>?)? in
            guard let armed = state.lanes[lane]?.armed, armed.number == number else { return nil }
            let task = state.lanes.removeValue(forKey: lane)?.task
            // The call still runs, holding what it holds, until it ends (``disarm(_:)``).
            abandoned.abandon()
            state.timedOut.append(
                TimedOut(call: armed.call, failure: HandlerRunError(handler: armed.timeout.handler, underlying: armed.timeout)))
            defer { state.waiting = nil }
            return (armed, task, state.waiting)
        }
        guard let (armed, task, waiting) = expired else { return }
        // Counted here, where the deadline won the race: a call that returned as its deadline came is not a timeout.
        armed.counter.increment()
        task?.cancel()
        waiting?.resume()
    }
}
