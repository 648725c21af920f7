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
///
/// With a patience, a round waits that long for its last lanes once every chain has a lane, then stops waiting: each
/// lane still busy becomes a ``Straggler``, whose chain settles on its own when its lane ends it (a call that returns
/// or is cut at its deadline), so a slow call holds only its own notification, not the round.
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
        /// The chain the lane is on; nil before it takes one.
        var chain: [Int]?
        /// Set once the round stopped waiting for the lane: where its chain's handlings go.
        var straggler: Straggler?
    }

    /// What a lane runs with; kept for the lanes a straggler's timed-out call hands its chain to, after ``run``.
    private struct Work {
        var advance: @Sendable (inout Cursor, Lane) async -> Void
        var failed: @Sendable (TimedOut) -> ResponsePipeline.Handling
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
        var work: Work?
        /// How long the round waits for its last lanes once the queue is empty; nil: as long as they run.
        var patience: Duration?
        /// The patience's deadline while it runs.
        var patienceDeadline: UInt64?
        var patienceOver = false
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
    ///
    /// With a `patience`, the round waits at most that long for its lanes once every chain has one: the chains of the
    /// lanes still running then are returned as stragglers, their positions' handlings nil.
    func run(
        concurrency: Int, patience: Duration? = nil,
        advance: @escaping @Sendable (inout Cursor, Lane) async -> Void,
        failed: @escaping @Sendable (TimedOut) -> ResponsePipeline.Handling
    ) async -> (handlings: [ResponsePipeline.Handling?], stragglers: [Straggler]) {
        let lanes = state.withLock { state in
            state.work = Work(advance: advance, failed: failed)
            state.patience = patience
            return min(max(1, concurrency), state.chains.count)
        }
        for _ in 0..<lanes { start(with: nil, straggler: nil) }
        var stragglers: [Straggler] = []
        await withTaskCancellationHandler {
            while true {
                await withCheckedContinuation { continuation in
                    let ready = state.withLock { state in
                        guard state.timedOut.isEmpty, !state.lanes.isEmpty, !state.patienceOver else { return true }
                        state.waiting = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
                let timedOut = state.withLock { state in
                    defer { state.timedOut.removeAll() }
                    return state.timedOut
                }
                for timeout in timedOut {
                    var cursor = timeout.call.cursor
                    // A failed event leaves its notification as it found it.
                    cursor.current = timeout.call.known
                    cursor.record(failed(timeout))
                    start(with: cursor, straggler: nil)
                }
                if !timedOut.isEmpty { continue }
                let (ended, left, patienceDeadline) = state.withLock { state -> (Bool, [Straggler], UInt64?) in
                    // A call cut since the wake (its deadline and the patience may come in one timer pass): its chain
                    // goes on in a fresh lane first, which the patience then leaves behind like the others.
                    guard state.timedOut.isEmpty else { return (false, [], nil) }
                    if state.lanes.isEmpty { return (true, [], state.patienceDeadline) }
                    guard state.patienceOver else { return (false, [], nil) }
                    // The patience ran out: the lanes still on a chain go on without the round.
                    var left: [Straggler] = []
                    for (id, lane) in state.lanes {
                        guard let chain = lane.chain else { continue }
                        let straggler = Straggler(chain: chain, lanes: self)
                        state.lanes[id]!.straggler = straggler
                        left.append(straggler)
                    }
                    return (true, left, nil)
                }
                if let patienceDeadline { deadlines.disarm(patienceDeadline) }
                if ended {
                    stragglers = left
                    break
                }
            }
        } onCancel: {
            let tasks = state.withLock { state in
                state.cancelled = true
                return state.lanes.values.compactMap(\.task)
            }
            for task in tasks { task.cancel() }
        }
        return (state.withLock { $0.handlings }, stragglers)
    }

    /// Starts a lane that goes on with `cursor`, if any, then takes chains from the queue until it is empty; a lane of
    /// `straggler` ends with its chain.
    private func start(with cursor: Cursor?, straggler: Straggler?) {
        let (lane, work) = state.withLock { state in
            defer { state.nextLane += 1 }
            state.lanes[state.nextLane] = LaneState(chain: cursor?.chain, straggler: straggler)
            return (state.nextLane, state.work!)
        }
        let task = Task(executorPreference: executor) {
            var next = cursor ?? self.finish(nil, lane: lane)
            while var cursor = next {
                await work.advance(&cursor, Lane(lanes: self, id: lane))
                next = self.finish(cursor, lane: lane)
            }
        }
        let cancel = state.withLock { state in
            state.lanes[lane]?.task = task
            return state.cancelled || state.lanes[lane] == nil
        }
        // Checked after the task is in place: a straggler cancelled before it either saw the task or is seen here.
        if cancel || straggler?.isCancelled == true { task.cancel() }
    }

    /// Records the handlings of a lane's finished chain and gives the lane the next chain; nil when the queue is empty
    /// (the lane ends), the lane was abandoned (what it did is dropped) or is a straggler's (its chain goes to it).
    private func finish(_ finished: Cursor?, lane: Int) -> Cursor? {
        enum Next {
            case chain(Cursor)
            case end(CheckedContinuation<Void, Never>?)
            case straggled(Straggler, [(Int, ResponsePipeline.Handling)])
            case patience(Duration, Cursor)
        }
        let next = state.withLock { state -> Next in
            guard let laneState = state.lanes[lane] else { return .end(nil) }
            if let straggler = laneState.straggler {
                state.lanes[lane] = nil
                return .straggled(straggler, finished?.handled ?? [])
            }
            for (index, handling) in finished?.handled ?? [] { state.handlings[index] = handling }
            if state.nextChain < state.chains.count {
                let chain = state.chains[state.nextChain]
                state.nextChain += 1
                state.lanes[lane]!.chain = chain
                // The last chain has its lane: from now on the round waits for its lanes only as long as its patience.
                if state.nextChain == state.chains.count, let patience = state.patience {
                    return .patience(patience, Cursor(chain: chain))
                }
                return .chain(Cursor(chain: chain))
            }
            state.lanes[lane] = nil
            guard state.lanes.isEmpty else { return .end(nil) }
            defer { state.waiting = nil }
            return .end(state.waiting)
        }
        switch next {
        case .chain(let cursor):
            return cursor
        case .end(let waiting):
            waiting?.resume()
            return nil
        case .straggled(let straggler, let handled):
            straggler.deliver(handled)
            return nil
        case .patience(let patience, let cursor):
            let deadline = deadlines.arm(ContinuousClock.now.advanced(by: patience)) { [self] in
                let waiting = state.withLock { state in
                    state.patienceOver = true
                    defer { state.waiting = nil }
                    return state.waiting
                }
                waiting?.resume()
            }
            // The round cannot end before this lane does: it disarms the patience then.
            state.withLock { $0.patienceDeadline = deadline }
            return cursor
        }
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
    /// cancelled, and the round told; a straggler's chain goes on from there in a fresh lane of its own.
    private func expire(lane: Int, number: UInt64) {
        let expired = state.withLock {
            state -> (ArmedCall, LaneState, CheckedContinuation<Void, Never>?, TimedOut, Work)? in
            guard let laneState = state.lanes[lane], let armed = laneState.armed, armed.number == number else {
                return nil
            }
            state.lanes[lane] = nil
            // The call still runs, holding what it holds, until it ends (``disarm(_:)``).
            abandoned.abandon()
            let timedOut = TimedOut(
                call: armed.call, failure: HandlerRunError(handler: armed.timeout.handler, underlying: armed.timeout))
            guard laneState.straggler == nil else { return (armed, laneState, nil, timedOut, state.work!) }
            state.timedOut.append(timedOut)
            defer { state.waiting = nil }
            return (armed, laneState, state.waiting, timedOut, state.work!)
        }
        guard let (armed, laneState, waiting, timedOut, work) = expired else { return }
        // Counted here, where the deadline won the race: a call that returned as its deadline came is not a timeout.
        armed.counter.increment()
        laneState.task?.cancel()
        waiting?.resume()
        if let straggler = laneState.straggler {
            var cursor = timedOut.call.cursor
            cursor.current = timedOut.call.known
            cursor.record(work.failed(timedOut))
            start(with: cursor, straggler: straggler)
        }
    }

    /// Cancels the lanes of `straggler`: its waiter was cancelled.
    fileprivate func cancel(_ straggler: Straggler) {
        let tasks = state.withLock { state in state.lanes.values.filter { $0.straggler === straggler }.compactMap(\.task) }
        for task in tasks { task.cancel() }
    }
}

/// A chain whose round stopped waiting for it (``ChainLanes``' patience): its lane goes on, and its handlings come
/// once the lane ends the chain, when its slow call returns or is cut at its deadline.
final class Straggler: Sendable {
    /// The chain's batch positions, in order.
    let chain: [Int]
    private let lanes: ChainLanes
    private let state = Mutex<
        (handled: [(Int, ResponsePipeline.Handling)]?, waiting: CheckedContinuation<Void, Never>?, cancelled: Bool)
    >((nil, nil, false))

    fileprivate init(chain: [Int], lanes: ChainLanes) {
        self.chain = chain
        self.lanes = lanes
    }

    /// The handling of each of the chain's events, by batch position, once its lane ended it. Cancelling the caller
    /// cancels the lane, and it still waits for it (or its deadline).
    func handlings() async -> [(Int, ResponsePipeline.Handling)] {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    guard state.handled == nil else { return true }
                    state.waiting = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.cancelled = true }
            lanes.cancel(self)
        }
        return state.withLock { $0.handled! }
    }

    /// Whether its waiter was cancelled: a lane that takes the chain over from a cut call is cancelled at its start.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    fileprivate func deliver(_ handled: [(Int, ResponsePipeline.Handling)]) {
        let waiting = state.withLock { state in
            state.handled = handled
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume()
    }
}
